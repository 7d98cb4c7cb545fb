/**
 * The stand-in model's answer after a tool ran: the tool's result (wire JSON, as the model
 * sees it) read back as chat text, the way a model would put it — a terminal result as its
 * output with a non-zero exit code noted, a written file as a sentence, a read file as its
 * content, a refusal as `Error: …`. A result it does not recognise is answered as is.
 *
 * @example
 * toolResultAsChat('terminal', '{"output": "hi\\n", "exit_code": 0, "error": null}') // 'hi'
 * toolResultAsChat('terminal', '{"output": "", "exit_code": 1, "error": null}')       // '(exit code 1)'
 */
export function toolResultAsChat(toolName: string, content: string): string {
  let result: unknown;
  try {
    result = JSON.parse(content);
  } catch {
    return content;
  }
  if (!result || typeof result !== 'object' || Array.isArray(result)) return content;
  const r = result as Record<string, unknown>;
  const keys = Object.keys(r);
  if (keys.length === 1 && typeof r.error === 'string') return `Error: ${r.error}`;
  switch (toolName) {
    case 'terminal':
      if ('output' in r && 'exit_code' in r) return terminalText(r);
      break;
    case 'write_file':
      if (typeof r.path === 'string' && typeof r.bytes_written === 'number')
        return `Wrote ${r.bytes_written} bytes to ${r.path}.`;
      break;
    case 'patch':
      if (typeof r.path === 'string' && typeof r.replacements === 'number') {
        return `Patched ${r.path} (${r.replacements} ${r.replacements === 1 ? 'replacement' : 'replacements'}).`;
      }
      break;
    case 'read_file':
      if (typeof r.path === 'string' && typeof r.content === 'string') {
        const text = r.content === '' ? `(${r.path} is empty)` : r.content;
        return r.truncated === true ? `${text}\n(truncated)` : text;
      }
      break;
    case 'delegate_task':
      if (Array.isArray(r.results)) return r.results.map(childText).join('\n\n');
      break;
  }
  return content;
}

function terminalText(r: Record<string, unknown>): string {
  const parts: string[] = [];
  const output = typeof r.output === 'string' ? r.output.replace(/\n+$/, '') : '';
  if (output !== '') parts.push(output);
  if (typeof r.error === 'string' && r.error !== '') parts.push(`Error: ${r.error}`);
  if (typeof r.exit_code === 'number' && r.exit_code !== 0) parts.push(`(exit code ${r.exit_code})`);
  return parts.length > 0 ? parts.join('\n') : '(no output)';
}

function childText(child: unknown): string {
  const c = (child && typeof child === 'object' ? child : {}) as Record<string, unknown>;
  const goal = typeof c.goal === 'string' ? c.goal : '';
  const status = typeof c.status === 'string' ? c.status : 'unknown';
  const summary = typeof c.summary === 'string' ? c.summary : '';
  return `Subtask "${goal}" ${status}${summary ? `:\n${summary}` : '.'}`;
}

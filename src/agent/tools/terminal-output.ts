/**
 * Post-processing of terminal output, in the order hook-semantics §1.8 gives: truncation to
 * the output limit, then ANSI escape stripping, then secret redaction.
 */

/** 50 KB of output reaches the model; the rest is cut from the middle. */
export const TERMINAL_OUTPUT_LIMIT = 50 * 1024;

/**
 * Keeps the head and the tail (errors tend to be at the end) with a marker between.
 *
 * @example
 * truncateOutput('x'.repeat(60_000)).includes('[output truncated:') // true
 */
export function truncateOutput(output: string, limit: number = TERMINAL_OUTPUT_LIMIT): string {
  if (output.length <= limit) return output;
  const head = Math.floor(limit * 0.4);
  const tail = limit - head;
  const omitted = output.length - head - tail;
  return `${output.slice(0, head)}\n\n... [output truncated: ${omitted} characters omitted] ...\n\n${output.slice(output.length - tail)}`;
}

// CSI / OSC / single-character escapes (the `ansi-regex` pattern).
const ANSI = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Common secret shapes and what replaces them. Each key names the shape in docs and
 * tests; the bearer rule keeps the word so the output still reads.
 */
export const SECRET_PATTERNS: readonly { key: string; pattern: RegExp; replacement: string }[] = [
  { key: 'openai_key', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replacement: '***' },
  { key: 'aws_access_key_id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replacement: '***' },
  { key: 'github_token', pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: '***' },
  { key: 'github_fine_grained_token', pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replacement: '***' },
  { key: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: '***' },
  { key: 'bearer_token', pattern: /\b([Bb]earer)\s+[A-Za-z0-9._~+/=-]{8,}/g, replacement: '$1 ***' },
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const { pattern, replacement } of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Truncate, strip ANSI, redact — what the terminal tool does to every output. */
export function postProcessTerminalOutput(output: string): string {
  return redactSecrets(stripAnsi(truncateOutput(output)));
}

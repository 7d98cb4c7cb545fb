import { describe, expect, it } from 'vitest';
import { argsValidator } from '../../src/agent/tools/args-validator.ts';
import { terminalTool } from '../../src/agent/tools/terminal.ts';
import { CallbackRegistry } from '../../src/hooks/callback-registry.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { runCallbacks } from '../../src/hooks/run-callbacks.ts';
import { rewrittenArgs } from '../../src/hooks/tool-call-rewrite.ts';
import { parseHookOutput } from '../../src/hooks/shell/parse-hook-output.ts';
import { hookgateToolInput } from '../../src/hooks/shell/claude-payload.ts';

/** hook-semantics §5.10 rewrites, on the engine's callback loop with real callbacks. */
function registryOf(...fns: [string, (kwargs: Record<string, unknown>) => unknown, string?][]): CallbackRegistry {
  const registry = new CallbackRegistry();
  for (const [name, fn, failClosedAs] of fns)
    registry.register({
      hook: 'pre_tool_call',
      name,
      source: failClosedAs ? 'shell' : 'plugin',
      ...(failClosedAs ? { failClosedAs } : {}),
      fn,
    });
  return registry;
}

const kwargs = { tool_name: 'terminal', args: { command: 'echo original' } };

/** The registry's pre_tool_call callbacks on `kwargs`, with the terminal tool's argument check, as a turn runs them. */
async function runWithArgsCheck(registry: CallbackRegistry, logger: ReturnType<typeof createMemoryLogger>): Promise<unknown[]> {
  return runCallbacks(
    'pre_tool_call',
    registry.callbacks('pre_tool_call'),
    kwargs,
    { logger },
    { validate: await argsValidator(terminalTool) },
  );
}

describe('pre_tool_call rewrites', () => {
  it('later callbacks see the rewritten args; the last rewrite gives the args the call runs with', async () => {
    const seen: unknown[] = [];
    const registry = registryOf(
      ['first', () => ({ action: 'rewrite', args: { command: 'echo one' } })],
      ['watch', (k) => void seen.push(k.args)],
      ['second', (k) => ({ action: 'rewrite', args: { command: `${String((k.args as { command: string }).command)} two` } })],
    );
    const logger = createMemoryLogger();
    const results = await runWithArgsCheck(registry, logger);
    expect(seen).toEqual([{ command: 'echo one' }]);
    expect(rewrittenArgs(results)).toEqual({ command: 'echo one two' });
  });

  it('args the tool does not take are a failed run: ignored with a warning, or the fail-closed block', async () => {
    const logger = createMemoryLogger();
    const registry = registryOf(
      ['plugin_bad', () => ({ action: 'rewrite', args: { cmd: 'ls' } })],
      ['shell_hook[pre_tool_call:/h.sh]', () => ({ action: 'rewrite', args: { command: 42 } }), '/h.sh'],
    );
    const results = await runWithArgsCheck(registry, logger);
    expect(rewrittenArgs(results)).toBeUndefined();
    expect(results).toEqual([
      {
        action: 'block',
        message: expect.stringMatching(/^hook \/h\.sh failed closed: rewritten arguments do not fit the tool \(command: /),
      },
    ]);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringContaining('callback plugin_bad rewrote the arguments of terminal into ones the tool does not take'),
      expect.stringContaining('callback shell_hook[pre_tool_call:/h.sh] rewrote'),
    ]);
  });

  it('args that cannot be copied (a function in them) are a failed run too, and an earlier block stands', async () => {
    const logger = createMemoryLogger();
    const registry = registryOf(
      ['guard', () => ({ action: 'block', message: 'no rm' })],
      ['odd', () => ({ action: 'rewrite', args: { command: 'ls', cb: () => 1 } })],
      ['shell_hook[pre_tool_call:/h.sh]', () => ({ action: 'rewrite', args: { command: 'ls', cb: () => 1 } }), '/h.sh'],
    );
    const results = await runWithArgsCheck(registry, logger);
    expect(results).toEqual([
      { action: 'block', message: 'no rm' },
      {
        action: 'block',
        message: expect.stringMatching(
          /^hook \/h\.sh failed closed: rewritten arguments do not fit the tool \(they cannot be copied: /,
        ),
      },
    ]);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringContaining(
        'callback odd rewrote the arguments of terminal into ones the tool does not take (they cannot be copied: ',
      ),
      expect.stringContaining('callback shell_hook[pre_tool_call:/h.sh] rewrote'),
    ]);
  });

  it('shell and http output: action rewrite, or updatedInput (a block wins); Claude Code names mapped back', () => {
    const logger = createMemoryLogger();
    expect(parseHookOutput('pre_tool_call', '{"action": "rewrite", "args": {"command": "ls"}}', logger)).toEqual({
      action: 'rewrite',
      args: { command: 'ls' },
    });
    expect(parseHookOutput('pre_tool_call', '{"hookSpecificOutput": {"updatedInput": {"command": "ls"}}}', logger)).toEqual({
      action: 'rewrite',
      args: { command: 'ls' },
      fromUpdatedInput: true,
    });
    expect(
      parseHookOutput(
        'pre_tool_call',
        '{"decision": "block", "hookSpecificOutput": {"updatedInput": {"command": "ls"}}}',
        logger,
      ),
    ).toEqual({ action: 'block', message: 'Blocked by shell hook.' });
    expect(parseHookOutput('post_tool_call', '{"action": "rewrite", "args": {"command": "ls"}}', logger)).toBeUndefined();
    expect(hookgateToolInput('write_file', { file_path: 'a.txt', content: 'x' })).toEqual({ path: 'a.txt', content: 'x' });
    expect(hookgateToolInput('terminal', { command: 'ls', timeout: 1500 })).toEqual({ command: 'ls', timeout: 2 });
  });
});

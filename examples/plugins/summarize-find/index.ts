/**
 * summarize-find — the seed's `transform_terminal_output` example.
 *
 * Hook: `transform_terminal_output` (hook-semantics §1.8), inside the terminal tool, after a
 * foreground command finished and before its output is truncated, ANSI-stripped and redacted.
 * Returning a string replaces the raw output (it is still truncated and redacted after).
 * Enable: `plugins.enabled: [summarize-find]` in config.yaml (on in examples/config.yaml).
 * Effect: a command starting with `find ` whose output is over 50,000 characters reaches the
 * model as its first 40 lines and `[summary: <n> paths total, showing first 40]`. Everything
 * else passes unchanged (`null`). Writes no file.
 */
import type { PluginContext } from '../../../src/index.ts';

const LIMIT = 50_000;

export function register(ctx: PluginContext): void {
  ctx.register_hook('transform_terminal_output', function summarizeFind({ command, output }) {
    if (typeof command !== 'string' || typeof output !== 'string') return null;
    if (!command.startsWith('find ') || output.length <= LIMIT) return null;
    const lines = output.split('\n').length - 1;
    const head = output.split('\n').slice(0, 40).join('\n');
    return `${head}\n\n[summary: ${lines} paths total, showing first 40]`;
  });
}

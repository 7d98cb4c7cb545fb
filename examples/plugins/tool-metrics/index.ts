/**
 * tool-metrics — the seed's "track tool usage metrics" plugin.
 *
 * Hook: `post_tool_call` (hook-semantics §1.6), after every tool call, with its `result` (a
 * JSON string) and `duration_ms`.
 * Enable: `plugins.enabled: [tool-metrics]` in config.yaml (on in examples/config.yaml).
 * Writes: after each call, the totals so far to `<hooks home>/logs/tool-metrics.json`:
 * `{"<tool>": {"calls", "errors", "latency_ms": [..]}}` (`examples/logs/` from the examples).
 *
 * A result counts as an error when it parses as a JSON object with an `error` key that is not
 * null (tools answer `"error": null` on success). The counters live in this process, as in the
 * seed: in `hookgate dev` that is every turn; in AWS each observer Lambda instance keeps its
 * own, so for production totals append to a table or a metrics service instead.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

interface ToolStats {
  calls: number;
  errors: number;
  latency_ms: number[];
}

function isError(result: unknown): boolean {
  if (typeof result !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(result);
    return typeof parsed === 'object' && parsed !== null && 'error' in parsed && (parsed as { error: unknown }).error != null;
  } catch {
    return false;
  }
}

export function register(ctx: PluginContext): void {
  const stats = new Map<string, ToolStats>();
  const file = join(ctx.home, 'logs', 'tool-metrics.json');
  ctx.register_hook('post_tool_call', async function trackMetrics({ tool_name, result, duration_ms }) {
    const name = String(tool_name);
    const entry = stats.get(name) ?? { calls: 0, errors: 0, latency_ms: [] };
    stats.set(name, entry);
    entry.calls += 1;
    entry.latency_ms.push(typeof duration_ms === 'number' ? duration_ms : 0);
    if (isError(result)) entry.errors += 1;
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await writeFile(file, `${JSON.stringify(Object.fromEntries(stats), null, 2)}\n`);
  });
}

/**
 * dangerous-tool-warning — the seed's "warn on dangerous tools" plugin.
 *
 * Hook: `pre_tool_call` (hook-semantics §1.5), before every tool call.
 * Enable: `plugins.enabled: [dangerous-tool-warning]` in config.yaml (on in examples/config.yaml).
 * Writes: `⚠ Executing potentially dangerous tool: <name>` on stdout (the `hookgate dev`
 * terminal; the function's log in AWS). No file.
 *
 * It returns nothing, so the call goes ahead: a `pre_tool_call` callback only blocks when it
 * returns `{action: 'block', message}` (see agent-hooks/block-rm-rf.sh for one that does).
 */
import type { PluginContext } from '../../../src/index.ts';

const DANGEROUS = new Set(['terminal', 'write_file', 'patch']);

export function register(ctx: PluginContext): void {
  ctx.register_hook('pre_tool_call', function warnDangerous({ tool_name }) {
    if (typeof tool_name === 'string' && DANGEROUS.has(tool_name)) {
      console.log(`⚠ Executing potentially dangerous tool: ${tool_name}`);
    }
  });
}

import type { PluginContext } from '../../../src/index.ts';

const SECRET = /sk-[A-Za-z0-9]{32,}/g;

/**
 * The seed's "redact secrets" transform: returning a string replaces the tool result;
 * returning null leaves it unchanged (and lets a later transform decide).
 * In hookgate every tool result already has common secret shapes, `sk-…` among them, masked
 * as `***` before this hook runs (docs/security.md); use the same shape for your own
 * organisation's identifiers.
 */
export function register(ctx: PluginContext): void {
  ctx.register_hook('transform_tool_result', function redactSecrets({ result }) {
    if (typeof result !== 'string' || !result.match(SECRET)) return null;
    return result.replace(SECRET, '[REDACTED]');
  });
}

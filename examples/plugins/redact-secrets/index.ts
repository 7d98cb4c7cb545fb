import type { PluginContext } from '../../../src/index.ts';

const SECRET = /sk-[A-Za-z0-9]{32,}/g;

/**
 * The seed's "redact secrets" transform: returning a string replaces the tool result;
 * returning null leaves it unchanged (and lets a later transform decide).
 */
export function register(ctx: PluginContext): void {
  ctx.register_hook('transform_tool_result', function redactSecrets({ result }) {
    if (typeof result !== 'string' || !result.match(SECRET)) return null;
    return result.replace(SECRET, '[REDACTED]');
  });
}

import type { PluginContext } from '../../../src/index.ts';

export const POLICY = 'Never execute commands that delete files without explicit user confirmation.';

/** The seed's "guardrails" example: every turn gets the policy as injected context. */
export function register(ctx: PluginContext): void {
  ctx.register_hook('pre_llm_call', function guardrails() {
    return { context: POLICY };
  });
}

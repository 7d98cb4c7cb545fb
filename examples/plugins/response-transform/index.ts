/**
 * response-transform — the seed's `transform_llm_output` example ("SpongeBob mode"): rewrite
 * the final answer with plain code, no extra model tokens.
 *
 * Hook: `transform_llm_output` (hook-semantics §1.10), once per turn with a non-empty,
 * uninterrupted response, before it is delivered. The first non-empty string returned
 * replaces the response; `null` leaves it unchanged.
 * Enable: `plugins.enabled: [response-transform]` in config.yaml and SPONGEBOB_MODE=on in the
 * environment; otherwise it passes everything through. Effect: every `!` in the reply becomes
 * `!! Tartar sauce!`. Writes no file.
 * It is OFF in examples/config.yaml, so an exported SPONGEBOB_MODE never changes what
 * `hookgate dev --home examples` answers. Its test enables it in a copy of the home.
 */
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  ctx.register_hook('transform_llm_output', function spongebob({ response_text }) {
    if (process.env.SPONGEBOB_MODE !== 'on' || typeof response_text !== 'string') return null;
    return response_text.replace(/!/g, '!! Tartar sauce!');
  });
}

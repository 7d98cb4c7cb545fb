/**
 * response-length — the seed's "track response length" plugin.
 *
 * Hook: `post_llm_call` (hook-semantics §1.10), once per successful turn.
 * Enable: `plugins.enabled: [response-length]` in config.yaml (on in examples/config.yaml).
 * Writes: `<ISO time> RESPONSE session=<id> model=<model> chars=<n>` per turn to
 * `<hooks home>/logs/response-length.log` (`examples/logs/` from the examples). `chars` counts
 * Unicode code points of the response the user received.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  ctx.register_hook('post_llm_call', async function logResponseLength({ session_id, assistant_response, model }) {
    const chars = typeof assistant_response === 'string' ? [...assistant_response].length : 0;
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(
      join(ctx.home, 'logs', 'response-length.log'),
      `${new Date().toISOString()} RESPONSE session=${String(session_id ?? '')} model=${String(model ?? '')} chars=${chars}\n`,
    );
  });
}

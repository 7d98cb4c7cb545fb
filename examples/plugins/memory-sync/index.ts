/**
 * memory-sync — the seed's "sync to an external memory" plugin.
 *
 * Hook: `post_llm_call` (hook-semantics §1.10), once per successful turn, after the final
 * response (and after `transform_llm_output`, so `assistant_response` is what the user got).
 * Enable: `plugins.enabled: [memory-sync]` in config.yaml (on in examples/config.yaml) and
 * MEMORY_API_URL, the memory service's base URL.
 * Calls: `POST $MEMORY_API_URL/store` with `{"session_id", "user", "assistant"}`, 5 s timeout,
 * best effort (a failure is ignored). Without MEMORY_API_URL nothing is called (one log line,
 * once). Writes no file. memory-recall reads the same service back on later turns.
 */
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  let saidUnset = false;
  ctx.register_hook('post_llm_call', async function syncMemory({ session_id, user_message, assistant_response }) {
    const api = process.env.MEMORY_API_URL;
    if (!api) {
      if (!saidUnset) ctx.logger.info('memory-sync: MEMORY_API_URL is not set, no exchanges are stored');
      saidUnset = true;
      return;
    }
    try {
      await fetch(`${api.replace(/\/+$/, '')}/store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id, user: user_message, assistant: assistant_response }),
        signal: AbortSignal.timeout(5_000),
      });
    } catch {
      // best effort, as in the seed
    }
  });
}

/**
 * memory-recall — the seed's "memory recall" plugin: context injection from a memory service.
 *
 * Hook: `pre_llm_call` (hook-semantics §1.9), once per turn before the first model request.
 * What it returns as `{context}` is appended to this turn's user message, for the model only:
 * never stored, never in the system prompt.
 * Enable: `plugins.enabled: [memory-recall]` in config.yaml (on in examples/config.yaml) and
 * MEMORY_API_URL, the service's base URL (e.g. `https://your-memory-api.example.com`).
 * Calls: `POST $MEMORY_API_URL/recall` with `{"session_id", "query"}` (query = the user's
 * message), 3 s timeout; it expects `{"results": [{"text": "…"}, …]}` and injects
 * `Recalled context:\n- <text>\n- …`. No results, an error or a timeout: nothing is injected,
 * the turn goes on. Without MEMORY_API_URL nothing is called (one log line, once).
 * Writes no file. Pair it with memory-sync, which stores each exchange in the same service.
 */
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  let saidUnset = false;
  ctx.register_hook('pre_llm_call', async function recall({ session_id, user_message }) {
    const api = process.env.MEMORY_API_URL;
    if (!api) {
      if (!saidUnset) ctx.logger.info('memory-recall: MEMORY_API_URL is not set, no memories are recalled');
      saidUnset = true;
      return null;
    }
    try {
      const response = await fetch(`${api.replace(/\/+$/, '')}/recall`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id, query: user_message }),
        signal: AbortSignal.timeout(3_000),
      });
      const body = (await response.json()) as { results?: { text?: unknown }[] };
      const memories = (Array.isArray(body.results) ? body.results : []).filter((m) => typeof m?.text === 'string');
      if (memories.length === 0) return null;
      return { context: `Recalled context:\n${memories.map((m) => `- ${String(m.text)}`).join('\n')}` };
    } catch {
      return null; // best effort, as in the seed: a memory outage never stops a turn
    }
  });
}

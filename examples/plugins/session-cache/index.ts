/**
 * session-cache — the seed's "initialise a session cache" and "flush and clean up" pair.
 *
 * Hooks: `on_session_start` (hook-semantics §1.13: the first turn of a brand-new session)
 * fills a cache entry for the session; `on_session_end` (the end of every turn, despite its
 * name) flushes and drops it. As in the seed that happens once per session, at the end of its
 * first turn: later turns find no cache.
 * Enable: `plugins.enabled: [session-cache]` in config.yaml (on in examples/config.yaml).
 * Writes: `Session <id> ended: completed|interrupted|failed (model=…, platform=…, started=…)`
 * to `<hooks home>/logs/session-cache.log` when an entry is flushed (`examples/logs/` from the
 * examples). Put your own per-session data in the entry and flush it there.
 *
 * Both hooks are observers: they run after the fact, in the observer consumer, and two events
 * are not guaranteed to run in the order they were emitted (docs/architecture.md). So the
 * entry is flushed when both have been seen, whichever came first. The cache lives in this
 * process, as in the seed: right for `hookgate dev`; in AWS each observer Lambda instance has
 * its own memory, so keep such state in a table there.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

interface SessionCache {
  started?: { model: string; platform: string; at: string };
  ended?: { completed: boolean; interrupted: boolean; at: number };
}

/** An end never paired with a start (a later turn of a flushed session) is dropped after this. */
const UNPAIRED_MS = 10 * 60_000;

export function register(ctx: PluginContext): void {
  const caches = new Map<string, SessionCache>();
  const entry = (id: string): SessionCache => caches.get(id) ?? caches.set(id, {}).get(id)!;

  const flushIfDone = async (id: string): Promise<void> => {
    const cache = caches.get(id);
    if (!cache?.started || !cache.ended) return;
    caches.delete(id);
    const { completed, interrupted } = cache.ended;
    const status = completed ? 'completed' : interrupted ? 'interrupted' : 'failed';
    const { model, platform, at } = cache.started;
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(
      join(ctx.home, 'logs', 'session-cache.log'),
      `Session ${id} ended: ${status} (model=${model}, platform=${platform}, started=${at})\n`,
    );
  };

  ctx.register_hook('on_session_start', async function initSession({ session_id, model, platform }) {
    const id = String(session_id);
    entry(id).started = { model: String(model ?? ''), platform: String(platform ?? ''), at: new Date().toISOString() };
    await flushIfDone(id);
  });

  ctx.register_hook('on_session_end', async function cleanupSession({ session_id, completed, interrupted }) {
    const id = String(session_id);
    const now = Date.now();
    // Later turns of a flushed session leave an end that no start will pair: forget those.
    for (const [other, cache] of caches)
      if (!cache.started && cache.ended && now - cache.ended.at > UNPAIRED_MS) caches.delete(other);
    if (caches.get(id)?.ended) return;
    entry(id).ended = { completed: completed === true, interrupted: interrupted === true, at: now };
    await flushIfDone(id);
  });
}

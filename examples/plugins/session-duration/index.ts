/**
 * session-duration — the seed's "session duration tracking" plugin.
 *
 * Hooks: `on_session_start` notes when a brand-new session starts; `on_session_end`
 * (hook-semantics §1.13: fired at the end of every turn) notes when its run ends. When both
 * are known the line is written and the session forgotten: as in the seed, one line per
 * session, the length of its first run.
 * Enable: `plugins.enabled: [session-duration]` in config.yaml (on in examples/config.yaml).
 * Writes: `SESSION_DURATION session=<id> seconds=<s.s> completed=<bool> interrupted=<bool>` to
 * `<hooks home>/logs/session-duration.log` (`examples/logs/` from the examples).
 *
 * Both hooks are observers: they run shortly after the events, in the observer consumer, and
 * two events are not guaranteed to run in emission order (docs/architecture.md). The times
 * are those at which the hooks ran, so `seconds` is close to the run's length when the queue
 * is not backed up, and 0.0 when the end was seen first (a very short run). The times live in
 * this process, as in the seed: right for `hookgate dev`; in AWS keep them in a table.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

interface Seen {
  start?: number;
  end?: { at: number; completed: boolean; interrupted: boolean };
}

/** An end never paired with a start (a later turn of a session already logged) is dropped after this. */
const UNPAIRED_MS = 10 * 60_000;

export function register(ctx: PluginContext): void {
  const sessions = new Map<string, Seen>();
  const seen = (id: string): Seen => sessions.get(id) ?? sessions.set(id, {}).get(id)!;

  const logIfDone = async (id: string): Promise<void> => {
    const times = sessions.get(id);
    if (times?.start === undefined || !times.end) return;
    sessions.delete(id);
    const seconds = (Math.max(0, times.end.at - times.start) / 1000).toFixed(1);
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(
      join(ctx.home, 'logs', 'session-duration.log'),
      `SESSION_DURATION session=${id} seconds=${seconds} completed=${times.end.completed} interrupted=${times.end.interrupted}\n`,
    );
  };

  ctx.register_hook('on_session_start', async function onStart({ session_id }) {
    const id = String(session_id);
    seen(id).start = Date.now();
    await logIfDone(id);
  });

  ctx.register_hook('on_session_end', async function onEnd({ session_id, completed, interrupted }) {
    const id = String(session_id);
    const now = Date.now();
    // Later turns of a logged session leave an end that no start will pair: forget those.
    for (const [other, times] of sessions)
      if (times.start === undefined && times.end && now - times.end.at > UNPAIRED_MS) sessions.delete(other);
    if (sessions.get(id)?.end) return; // only the first run of a session counts
    seen(id).end = { at: now, completed: completed === true, interrupted: interrupted === true };
    await logIfDone(id);
  });
}

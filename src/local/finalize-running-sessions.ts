import type { HookEngine } from '../hooks/hook-engine.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * `hookgate dev`'s first stop step (hook-semantics §1.13.1): `on_session_finalize` once per
 * session with a turn in flight, platform `gateway`, reason `shutdown`, one after another, run
 * here (the observer consumer is about to stop) and published for telemetry. Hook failures
 * are the engine's to log; nothing here throws.
 *
 * @example
 * await finalizeRunningSessions(engine, turnsInFlight.sessions());
 */
export async function finalizeRunningSessions(engine: HookEngine, sessionIds: readonly string[]): Promise<void> {
  for (const sessionId of sessionIds) {
    await engine
      .observe(
        'on_session_finalize',
        { session_id: sessionId, platform: 'gateway', reason: 'shutdown' },
        { session_id: sessionId, inline: true },
      )
      .catch((error: unknown) =>
        process.stderr.write(`hookgate dev: on_session_finalize for ${sessionId}: ${errorText(error)}\n`),
      );
  }
}

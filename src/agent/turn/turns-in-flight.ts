import type { HealthReport, StuckTurn } from '../../gateway/health-report.ts';

/** Default: a turn invocation in flight for more than 5 minutes counts as stuck. */
export const DEFAULT_STUCK_TURN_SECONDS = 300;

/** One invocation of a turn, as it starts. */
export interface TurnInFlight {
  readonly turn_id: string;
  readonly session_key: string;
  readonly session_id: string;
}

/**
 * The turn invocations running in this process. Two readers: `GET /healthz`, which reports the
 * ones in flight longer than `stuckAfterMs` as `degraded` (their turn id and age), and the
 * gateway's shutdown, which fires `on_session_finalize` once per session with a running turn
 * (hook-semantics §1.13.1; a turn suspended for an approval is not running). The turn runtime
 * calls `begin` when an invocation starts and the returned function when it ends. (`hookgate dev`
 * runs turns in the gateway's process; a deployed gateway λ runs none.)
 *
 * @example
 * const turns = new TurnsInFlight();
 * const end = turns.begin({ turn_id: 'turn_1', session_key: 'local:c1', session_id: 'sess-1' });
 * turns.sessions(); // ['sess-1']
 * turns.report(); // { status: 'ok' } until 5 minutes have passed
 * end();
 */
export class TurnsInFlight {
  readonly #inFlight = new Map<symbol, TurnInFlight & { since: number }>();
  readonly #stuckAfterMs: number;
  readonly #now: () => number;

  constructor(options: { stuckAfterMs?: number; now?: () => number } = {}) {
    this.#stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_TURN_SECONDS * 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Notes a running invocation; call the returned function when it ends (a second call does nothing). */
  begin(turn: TurnInFlight): () => void {
    const key = Symbol(turn.turn_id);
    this.#inFlight.set(key, {
      turn_id: turn.turn_id,
      session_key: turn.session_key,
      session_id: turn.session_id,
      since: this.#now(),
    });
    return () => void this.#inFlight.delete(key);
  }

  /** Each session with a running turn, once, in the order their turns started. */
  sessions(): string[] {
    return [...new Set([...this.#inFlight.values()].map((turn) => turn.session_id))];
  }

  /** Turns in flight longer than the threshold, oldest first. */
  stuck(): StuckTurn[] {
    const now = this.#now();
    return [...this.#inFlight.values()]
      .filter((turn) => now - turn.since > this.#stuckAfterMs)
      .sort((a, b) => a.since - b.since)
      .map((turn) => ({
        turn_id: turn.turn_id,
        session_key: turn.session_key,
        age_seconds: Math.round((now - turn.since) / 1000),
      }));
  }

  /** What `GET /healthz` answers. */
  report(): HealthReport {
    const stuck = this.stuck();
    return stuck.length === 0 ? { status: 'ok' } : { status: 'degraded', stuck_turns: stuck };
  }
}

/** A turn in flight longer than the stuck threshold, as `/healthz` reports it. */
export interface StuckTurn {
  readonly turn_id: string;
  readonly session_key: string;
  /** Seconds since this invocation of the turn began. */
  readonly age_seconds: number;
}

export type HealthReport = { status: 'ok' } | { status: 'degraded'; stuck_turns: StuckTurn[] };

/** Default: a turn invocation in flight for more than 5 minutes counts as stuck. */
export const DEFAULT_STUCK_TURN_SECONDS = 300;

/**
 * The turns in flight in this process, for `GET /healthz` (issue 12 item 7). The turn runtime
 * calls `begin` when an invocation of a turn starts and the returned `end` when it finishes;
 * one still in flight after `stuckAfterMs` makes the report `degraded`, with its turn id and
 * age. (`hookgate dev` runs turns in the gateway's process; a deployed gateway λ runs none.)
 *
 * @example
 * const health = new TurnHealth();
 * const end = health.begin('turn_1', 'local:c1');
 * health.report(); // { status: 'ok' } until 5 minutes have passed
 * end();
 */
export class TurnHealth {
  readonly #inFlight = new Map<symbol, { turn_id: string; session_key: string; since: number }>();
  readonly #stuckAfterMs: number;
  readonly #now: () => number;

  constructor(options: { stuckAfterMs?: number; now?: () => number } = {}) {
    this.#stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_TURN_SECONDS * 1000;
    this.#now = options.now ?? Date.now;
  }

  begin(turnId: string, sessionKey: string): () => void {
    const key = Symbol(turnId);
    this.#inFlight.set(key, { turn_id: turnId, session_key: sessionKey, since: this.#now() });
    return () => void this.#inFlight.delete(key);
  }

  /** Turns in flight longer than the threshold, oldest first. */
  stuck(): StuckTurn[] {
    const now = this.#now();
    return [...this.#inFlight.values()]
      .filter((turn) => now - turn.since > this.#stuckAfterMs)
      .sort((a, b) => a.since - b.since)
      .map((turn) => ({ turn_id: turn.turn_id, session_key: turn.session_key, age_seconds: Math.round((now - turn.since) / 1000) }));
  }

  report(): HealthReport {
    const stuck = this.stuck();
    return stuck.length === 0 ? { status: 'ok' } : { status: 'degraded', stuck_turns: stuck };
  }
}

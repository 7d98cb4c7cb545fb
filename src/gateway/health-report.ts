/** A turn in flight longer than the stuck threshold, as `/healthz` reports it. */
export interface StuckTurn {
  readonly turn_id: string;
  readonly session_key: string;
  /** Seconds since this invocation of the turn began. */
  readonly age_seconds: number;
}

/** What `GET /healthz` answers: `ok`, or `degraded` (503) with the turns stuck in this process. */
export type HealthReport = { status: 'ok' } | { status: 'degraded'; stuck_turns: StuckTurn[] };

/** Where `/healthz` reads the report: the turns running in this process (`TurnsInFlight` in `hookgate dev`). */
export interface HealthProbe {
  report(): HealthReport;
}

/** The current session of one conversation (session key = platform + chat + thread). */
export interface SessionRecord {
  readonly session_key: string;
  readonly session_id: string;
  readonly platform: string;
  readonly chat_id: string;
  readonly thread_id: string;
  readonly user_id: string | null;
  readonly chat_type: string;
  /** ISO-8601. */
  readonly created_at: string;
  readonly updated_at: string;
  /** Turns run in this session so far (0 = brand new). */
  readonly turn_count: number;
  /** Set by a reset (/new, idle expiry) and consumed by the next turn's session:start (§2.4). */
  readonly fresh: boolean;
  /** The turn that started (or resumed) last in this session, and whose it is: `/stop` asks it. */
  readonly last_turn?: StartedTurn;
}

/** A turn as `/stop` sees it: which one, and the user who asked for it. */
export interface StartedTurn {
  readonly turn_id: string;
  readonly platform: string;
  /** `null` when the platform gave no user id: then only an approver can stop it. */
  readonly user_id: string | null;
  /** ISO-8601. */
  readonly started_at: string;
}

export type SessionMeta = Pick<SessionRecord, 'platform' | 'chat_id' | 'thread_id' | 'user_id' | 'chat_type'>;

export interface SessionStore {
  current(sessionKey: string): Promise<SessionRecord | undefined>;
  /**
   * The session a new turn runs in: the current one, or a new one when there is none or the
   * current one has been idle longer than `idleSeconds` (then `expired` is the old one, for
   * on_session_finalize with reason `session_expired`).
   */
  resolve(
    sessionKey: string,
    meta: SessionMeta,
    options?: { idleSeconds?: number; now?: Date },
  ): Promise<{ session: SessionRecord; created: boolean; expired?: SessionRecord }>;
  /** /new and /reset: swaps in a new session (§1.13.1 step 2); first writer wins. */
  rotate(sessionKey: string, meta: SessionMeta): Promise<{ old?: SessionRecord; current: SessionRecord }>;
  /** After a turn: bump turn_count and updated_at, clear `fresh`. Counts `turnId` once, however often it is sent. */
  recordTurn(sessionKey: string, sessionId: string, turnId: string, now?: Date): Promise<void>;
  /**
   * Notes the turn that starts (or resumes) now in the session `sessionId` (ignored when the
   * session has been replaced meanwhile): `/stop` reads whose it is from `last_turn`.
   *
   * With `firstRunOf` (a starting turn's delivery id), the same write claims the session's first
   * run: true when this delivery holds it (the first to claim it, or a redelivery of that one),
   * which is the turn that fires `session:start` and `on_session_start` (§2.4, §1.13): a turn
   * that runs while the first waits for an approval is a continuation. True as well when the
   * session has been replaced meanwhile (nothing is recorded on a session the chat has left).
   * Without it, always false.
   */
  noteTurnStarted(sessionKey: string, sessionId: string, turn: StartedTurn, firstRunOf?: string): Promise<boolean>;
  /**
   * Gives back the first run that delivery `deliveryId` claimed but did not run (its message was
   * refused before the agent): the session's next turn is its first. Ignored when another holds it.
   */
  releaseFirstRun(sessionKey: string, sessionId: string, deliveryId: string): Promise<void>;
  /**
   * /stop: ask the running turn of this conversation to stop between iterations; with
   * `turnId`, only that turn (another turn of the session goes on), without it (/new) any.
   */
  requestStop(sessionKey: string, now?: Date, turnId?: string): Promise<void>;
  /** True iff a stop was requested at or after `since` (the turn's start) for this turn or for any. */
  stopRequested(sessionKey: string, since: Date, turnId?: string): Promise<boolean>;
}

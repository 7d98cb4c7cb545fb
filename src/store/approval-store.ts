export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny' | 'timeout';

/** Who asked: the user whose turn waits, in which chat. Only they (or an approver) may answer. */
export interface ApprovalRequester {
  readonly platform: string;
  readonly chat_id: string;
  /** `null` when the platform gave no user id: then only an approver can answer. */
  readonly user_id: string | null;
}

/** A dangerous command waiting for the user's yes, with the suspended turn's state. */
export interface PendingApproval {
  readonly approval_id: string;
  readonly session_key: string;
  readonly session_id: string;
  readonly turn_id: string;
  readonly command: string;
  readonly description: string;
  readonly pattern_key: string;
  readonly pattern_keys: readonly string[];
  readonly created_at: string;
  readonly expires_at: string;
  readonly requested_by: ApprovalRequester;
  /** The suspended turn, serialised by the turn runtime; opaque to the store. */
  readonly state: unknown;
}

/** How an approval was answered (absent fields: not answered yet). */
export interface ApprovalAnswer {
  /** `<platform>:<user id>` of whoever answered; absent for a timeout. */
  readonly answered_by?: string;
  /** An `always` answer by an approver that applies to every chat, not only this one. */
  readonly global?: boolean;
}

export type AnsweredApproval = PendingApproval &
  ApprovalAnswer & {
    choice?: ApprovalChoice;
    /** Set once a resumed invocation of the turn has finished (see `markResumed`). */
    resumed_at?: string;
  };

/** An approval without the suspended turn's state: what the gateway's commands read (`/status`, `/approve`). */
export type ApprovalSummary = Omit<AnsweredApproval, 'state'>;

/** A pending approval without the suspended turn's state. */
export type PendingApprovalSummary = Omit<PendingApproval, 'state'>;

/**
 * Where a grant applies:
 * - `session`: one session id (`/approve session`; cleared by /new);
 * - `chat`: one chat of one platform (`/approve always`);
 * - `global`: every chat (`/approve always global`, approvers only).
 */
export type GrantScope =
  | { readonly kind: 'session'; readonly session_id: string }
  | { readonly kind: 'chat'; readonly platform: string; readonly chat_id: string }
  | { readonly kind: 'global' };

/** Where a command runs: the grants that can cover it. */
export interface GrantContext {
  readonly session_id: string;
  readonly platform: string;
  readonly chat_id: string;
}

export interface ApprovalStore {
  putPending(approval: PendingApproval): Promise<void>;
  /**
   * The pending approval of a conversation, if any and not yet answered, without the suspended
   * turn's state (which can be megabytes kept in parts; only the resumed turn needs it).
   */
  pending(sessionKey: string): Promise<PendingApprovalSummary | undefined>;
  /** An approval with the suspended turn's state, for its resume. */
  get(approvalId: string): Promise<AnsweredApproval | undefined>;
  /** An approval and its answer, without the state. */
  summary(approvalId: string): Promise<ApprovalSummary | undefined>;
  /** Records the answer; the first answer wins (conditional write). False if already answered. */
  answer(approvalId: string, choice: ApprovalChoice, now?: Date, by?: ApprovalAnswer): Promise<boolean>;
  /**
   * Records that a resumed invocation of the approval's turn has finished; a redelivered
   * resume then finds it and is ignored. False if it was already recorded.
   */
  markResumed(approvalId: string, now?: Date): Promise<boolean>;
  /** Remembers a grant for a pattern key in one scope. */
  grant(scope: GrantScope, patternKey: string): Promise<void>;
  /** True when a session, chat or global grant covers the pattern key here. */
  isGranted(patternKey: string, where: GrantContext): Promise<boolean>;
  /** Clears session-scoped grants and pending approvals (§1.13.1 step 3). */
  clearSession(sessionKey: string, sessionId: string): Promise<void>;
}

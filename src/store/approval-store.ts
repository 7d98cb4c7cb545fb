export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny' | 'timeout';

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
  /** The suspended turn, serialised by the turn runtime; opaque to the store. */
  readonly state: unknown;
}

export interface ApprovalStore {
  putPending(approval: PendingApproval): Promise<void>;
  /** The pending approval of a conversation, if any and not yet answered. */
  pending(sessionKey: string): Promise<PendingApproval | undefined>;
  get(approvalId: string): Promise<(PendingApproval & { choice?: ApprovalChoice }) | undefined>;
  /** Records the answer; the first answer wins (conditional write). False if already answered. */
  answer(approvalId: string, choice: ApprovalChoice, now?: Date): Promise<boolean>;
  /** Remembers a `session` (this session id) or `always` (every session) grant for a pattern. */
  grant(scope: 'session' | 'always', patternKey: string, sessionId: string): Promise<void>;
  isGranted(patternKey: string, sessionId: string): Promise<boolean>;
  /** Clears session-scoped grants and pending approvals (§1.13.1 step 3). */
  clearSession(sessionKey: string, sessionId: string): Promise<void>;
}

/**
 * The sessions whose turns are running in this process right now, for the gateway's
 * shutdown (hook-semantics §1.13.1: `on_session_finalize` once per running agent, platform
 * `gateway`, reason `shutdown`). A suspended turn (waiting for an approval) is not running.
 *
 * @example
 * const active = new ActiveTurns();
 * const leave = active.enter('sess-1');
 * active.sessions(); // ['sess-1']
 * leave();
 */
export class ActiveTurns {
  private readonly counts = new Map<string, number>();

  /** Notes a running turn of `sessionId`; call the returned function (once) when it ends. */
  enter(sessionId: string): () => void {
    this.counts.set(sessionId, (this.counts.get(sessionId) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.counts.get(sessionId) ?? 1) - 1;
      if (count > 0) this.counts.set(sessionId, count);
      else this.counts.delete(sessionId);
    };
  }

  /** Each session with a running turn, once, in the order they started. */
  sessions(): string[] {
    return [...this.counts.keys()];
  }
}

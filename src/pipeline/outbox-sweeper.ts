import type { DynamoObserverOutbox, OutboxEntry } from './observer-outbox.ts';

export interface OutboxSweepDeps {
  outbox: Pick<DynamoObserverOutbox, 'pendingSessions' | 'listSession' | 'remove' | 'settle'>;
  /** Publishes envelopes as they are (`SnsObserverSink.republish`); rejects when SNS still does not take them. */
  republish(entries: readonly OutboxEntry[]): Promise<void>;
  /** Entries published per request round (default 100). */
  pageSize?: number;
  /** Stop starting new sessions after this time (epoch ms): a Lambda's remaining budget. */
  deadline?: number;
}

/** What one sweep did. */
export interface OutboxSweep {
  published: number;
  /** Sessions emptied (their index entry removed). */
  drained: number;
  /** Sessions left waiting because SNS still refused (or the deadline came). */
  waiting: number;
}

/**
 * One pass of the observer outbox (docs/reliability.md, "Observer outbox"): for each session
 * with envelopes waiting, publish them oldest first, delete what went out, and remove the
 * session's index entry once it is empty. A session whose publish fails stops there (its later
 * envelopes must not overtake the earlier ones) and is tried on the next pass. A crash between a
 * publish and its delete publishes those envelopes again: consumers deduplicate on the id.
 *
 * @example
 * const sweep = await sweepOutbox({ outbox, republish: (entries) => sink.republish(entries) });
 */
export async function sweepOutbox(deps: OutboxSweepDeps): Promise<OutboxSweep> {
  const result: OutboxSweep = { published: 0, drained: 0, waiting: 0 };
  for (const { session, token } of await deps.outbox.pendingSessions()) {
    if (deps.deadline !== undefined && Date.now() > deps.deadline) {
      result.waiting += 1;
      continue;
    }
    for (;;) {
      const entries = await deps.outbox.listSession(session, deps.pageSize ?? 100);
      if (entries.length === 0) {
        if (await deps.outbox.settle(session, token)) result.drained += 1;
        break;
      }
      try {
        await deps.republish(entries);
      } catch {
        result.waiting += 1;
        break;
      }
      await deps.outbox.remove(
        session,
        entries.map((entry) => entry.sk),
      );
      result.published += entries.length;
    }
  }
  return result;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { HandledDeliveryStore } from '../../src/store/handled-delivery-store.ts';
import { startTurnHarness, userMessage, type TurnHarness } from './support/turn-harness.ts';

/** The data plane's record of handled deliveries, with its calls counted and its writes breakable. */
const handled = { checks: [] as string[], failWrites: false, store: undefined as HandledDeliveryStore | undefined };

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness({
    deps: {
      handled: {
        wasHandled: (id, now) => {
          handled.checks.push(id);
          return handled.store!.wasHandled(id, now);
        },
        markHandled: (id, ttl, now) =>
          handled.failWrites ? Promise.reject(new Error('connect ECONNREFUSED')) : handled.store!.markHandled(id, ttl, now),
      },
    },
  });
  handled.store = h.plane.dedup;
});
afterAll(() => h?.close());

describe('a turn message SQS delivers again', () => {
  it('after its turn ended: acknowledged, not run, not answered twice', async () => {
    h.model.script({ content: 'one answer' });
    const message = userMessage('hello', 'again');
    expect((await h.invoke(message)).batchItemFailures).toEqual([]);
    expect((await h.invoke(message)).batchItemFailures).toEqual([]);
    expect(h.replies.filter((r) => r.target.chat_id === 'again').map((r) => r.text)).toEqual(['one answer']);
    expect(h.results.at(-1)).toMatchObject({ outcome: 'ignored', reason: 'already handled' });
  });

  it('when the record cannot be written: the turn still succeeds (no retry, so no second reply) and says why', async () => {
    handled.failWrites = true;
    try {
      h.model.script({ content: 'one answer' });
      const message = userMessage('hello', 'unrecorded');
      expect((await h.invoke(message)).batchItemFailures).toEqual([]);
      expect(h.replies.filter((r) => r.target.chat_id === 'unrecorded')).toHaveLength(1);
      const lines = (h.deps.logger as ReturnType<typeof createMemoryLogger>).lines;
      expect(
        lines.some(
          (l) => l.level === 'error' && l.message.includes(`could not record delivery ${message.delivery_id} as handled`),
        ),
      ).toBe(true);
    } finally {
      handled.failWrites = false;
    }
  });

  it('an approval answer is not checked: resumes have their own guard', async () => {
    const before = handled.checks.length;
    await h.invoke({
      v: 1,
      kind: 'approval',
      delivery_id: 'd-none',
      session_key: 'local:again',
      received_at: new Date().toISOString(),
      approval_id: 'no-such-approval',
      choice: 'once',
    });
    expect(handled.checks.length).toBe(before);
  });
});

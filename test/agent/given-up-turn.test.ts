import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { TURN_GIVEN_UP_REPLY, TURN_MAX_RECEIVE_COUNT } from '../../src/pipeline/topology.ts';
import { startTurnHarness, userMessage, type TurnHarness } from './support/turn-harness.ts';

/** The table is unreachable for the chats named here: every turn there fails before it starts. */
const broken = new Set<string>();

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness({
    deps: {
      handled: {
        wasHandled: async (id) => {
          if (broken.has(id)) throw new Error('connect ECONNREFUSED (table)');
          return false;
        },
        markHandled: async () => {},
      },
    },
  });
});
afterAll(() => h?.close());

/** One turns-queue record as Lambda passes it, on its `receives`-th receive. */
function delivery(body: unknown, receives: number): SQSEvent {
  const record = {
    messageId: randomUUID(),
    receiptHandle: 'r',
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receives) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:hookgate-turns.fifo',
    awsRegion: 'us-east-1',
  } as unknown as SQSRecord;
  return { Records: [record] };
}

describe('a turn that keeps failing', () => {
  it('is retried silently, then on its last receive the chat gets an apology and SQS gets the failure (so the message goes to the DLQ)', async () => {
    const message = userMessage('hello', 'doomed');
    broken.add(message.delivery_id);
    for (let receive = 1; receive < TURN_MAX_RECEIVE_COUNT; receive++) {
      const first = await h.handler(delivery(message, receive));
      expect(first.batchItemFailures).toHaveLength(1);
      expect(h.replies.filter((r) => r.target.chat_id === 'doomed')).toEqual([]);
    }
    const last = await h.handler(delivery(message, TURN_MAX_RECEIVE_COUNT));
    expect(last.batchItemFailures).toHaveLength(1);
    expect(h.replies.filter((r) => r.target.chat_id === 'doomed')).toEqual([
      { target: message.kind === 'message' ? message.event.reply : undefined, text: TURN_GIVEN_UP_REPLY },
    ]);
    const lines = (h.deps.logger as ReturnType<typeof createMemoryLogger>).lines;
    expect(
      lines.some(
        (l) =>
          l.level === 'error' && l.message.includes(`failed on receive ${TURN_MAX_RECEIVE_COUNT} of ${TURN_MAX_RECEIVE_COUNT}`),
      ),
    ).toBe(true);
  });

  it('an apology that cannot be sent is logged; the failure still reaches SQS', async () => {
    const message = userMessage('hello', 'unreachable');
    broken.add(message.delivery_id);
    const send = h.deps.replier.send;
    h.deps.replier.send = async () => {
      throw new Error('platform down');
    };
    try {
      const out = await h.handler(delivery(message, TURN_MAX_RECEIVE_COUNT));
      expect(out.batchItemFailures).toHaveLength(1);
    } finally {
      h.deps.replier.send = send;
    }
    const lines = (h.deps.logger as ReturnType<typeof createMemoryLogger>).lines;
    expect(
      lines.some(
        (l) => l.level === 'error' && l.message.includes('the apology for message') && l.message.includes('platform down'),
      ),
    ).toBe(true);
  });
});

import type { SQSEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DevTurnJournal } from '../../src/local/turn-journal.ts';
import type { ReplyTarget } from '../../src/messaging/message-event.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { useTestDataPlane } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

const local = useTestDataPlane();

const message = (id: string, receivedAt: string): TurnMessage => ({
  v: 1,
  kind: 'message',
  delivery_id: id,
  session_key: 'local:c1',
  received_at: receivedAt,
  event: {
    text: 'hi',
    message_id: id,
    internal: false,
    source: { platform: 'local', chat_id: 'c1', user_id: 'u1', user_name: '', chat_type: 'dm', thread_id: '' },
    reply: { platform: 'local', chat_id: 'c1', thread_id: '', extra: {} },
  },
});

const recordOf = (m: TurnMessage, messageId: string) => ({ messageId, body: JSON.stringify(m) }) as SQSEvent['Records'][number];

describe('DevTurnJournal (the table behind hookgate dev --state)', () => {
  it('journals before sending, forgets handled records, keeps failed ones and re-sends them oldest first', async () => {
    const sent: string[] = [];
    const journal = new DevTurnJournal(local.plane.table, { send: async (m) => void sent.push(m.delivery_id) });
    const late = message('local:late', '2026-01-01T00:00:02.000Z');
    const early = message('local:early', '2026-01-01T00:00:01.000Z');
    const done = message('local:done', '2026-01-01T00:00:00.000Z');
    for (const m of [late, early, done]) await journal.send(m);
    expect(sent).toEqual(['local:late', 'local:early', 'local:done']);

    // The consumer handled `done` and failed `late`; `early` was never received.
    const handler = journal.settling(async () => ({ batchItemFailures: [{ itemIdentifier: 'm-late' }] }));
    await handler({ Records: [recordOf(done, 'm-done'), recordOf(late, 'm-late')] });

    sent.length = 0;
    expect(await journal.redrive()).toBe(2);
    expect(sent).toEqual(['local:early', 'local:late']);
  });

  it('keeps every record when the consumer throws', async () => {
    const journal = new DevTurnJournal(local.plane.table, { send: async () => {} });
    const m = message('local:throws', '2026-01-01T00:00:03.000Z');
    await journal.send(m);
    const handler = journal.settling(async () => {
      throw new Error('boom');
    });
    await expect(handler({ Records: [recordOf(m, 'm-1')] })).rejects.toThrow('boom');
    expect((await journal.pending()).map((p) => p.delivery_id)).toContain('local:throws');
  });

  it('forgets a message the queue refused: the gateway answers 5xx, and a restart must not answer it', async () => {
    const journal = new DevTurnJournal(local.plane.table, {
      send: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    await expect(journal.send(message('local:refused', '2026-01-01T00:00:04.000Z'))).rejects.toThrow('ECONNREFUSED');
    expect((await journal.pending()).map((p) => p.delivery_id)).not.toContain('local:refused');
  });

  describe('a turn that stops the server', () => {
    const interruptedOf = async (id: string) =>
      Number(
        (
          await local.plane.table.doc.send(
            new GetCommand({ TableName: local.plane.table.tableName, Key: { PK: DevTurnJournal.PARTITION, SK: id } }),
          )
        ).Item?.interrupted ?? 0,
      );
    /** One "process": a journal over the same table, and a consumer that never returns (the process dies in it). */
    const dieWhileHandling = async (m: TurnMessage) => {
      const before = await interruptedOf(m.delivery_id);
      const journal = new DevTurnJournal(local.plane.table, { send: async () => {} });
      void journal.settling(() => new Promise(() => {}))({ Records: [recordOf(m, 'sqs-1')] });
      // The interruption is counted before the consumer gets the record.
      await until(async () => (await interruptedOf(m.delivery_id)) === before + 1, 'the interruption to be counted');
    };
    const replies: { target: ReplyTarget; text: string }[] = [];
    const replier = { send: async (target: ReplyTarget, text: string) => void replies.push({ target, text }) };

    it('is re-sent after one death, answered with an error and dropped after the second', async () => {
      const m = { ...message('local:killer', '2026-01-02T00:00:00.000Z'), session_key: 'local:loop' };
      const sent: string[] = [];
      const journal = new DevTurnJournal(local.plane.table, { send: async (x) => void sent.push(x.delivery_id) });
      await journal.send(m);

      await dieWhileHandling(m);
      expect(await journal.dropRepeatedCrashes(replier)).toEqual([]);
      sent.length = 0;
      await journal.redrive();
      expect(sent).toContain('local:killer');

      await dieWhileHandling(m);
      const dropped = await journal.dropRepeatedCrashes(replier);
      expect(dropped.map((d) => d.delivery_id)).toEqual(['local:killer']);
      expect(replies).toEqual([
        { target: m.kind === 'message' ? m.event.reply : undefined, text: DevTurnJournal.CRASH_LOOP_REPLY },
      ]);
      expect((await journal.pending()).map((p) => p.delivery_id)).not.toContain('local:killer');
    });

    it('does not count a consumer that failed, threw or was still busy at a clean stop', async () => {
      const m = message('local:unlucky', '2026-01-02T00:00:01.000Z');
      const journal = new DevTurnJournal(local.plane.table, { send: async () => {} });
      await journal.send(m);
      for (let i = 0; i < 3; i++) {
        await journal.settling(async () => ({ batchItemFailures: [{ itemIdentifier: 'r' }] }))({ Records: [recordOf(m, 'r')] });
        await expect(
          journal.settling(async () => Promise.reject(new Error('boom')))({ Records: [recordOf(m, 'r')] }),
        ).rejects.toThrow('boom');
      }
      // A clean stop while a hook still holds the turn: taken back, and its late return changes nothing.
      let finish: (() => void) | undefined;
      const late = journal.settling(
        () => new Promise((resolve) => (finish = () => resolve({ batchItemFailures: [{ itemIdentifier: 'r' }] }))),
      )({ Records: [recordOf(m, 'r')] });
      // Wait for the consumer itself, not for the count: another client's read can see the count
      // before the journal's own update has returned, and a release then would race the consumer.
      const release = await until(() => finish, 'the consumer to have the turn');
      expect(await interruptedOf(m.delivery_id)).toBe(1);
      await journal.release();
      release();
      await late;
      expect(await interruptedOf(m.delivery_id)).toBe(0);
      expect(await journal.dropRepeatedCrashes(replier)).toEqual([]);
      expect((await journal.pending()).map((p) => p.delivery_id)).toContain('local:unlucky');
    });
  });
});

import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DevTurnJournal } from '../../src/local/turn-journal.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { useTestDataPlane } from '../support/local-aws.ts';

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
});

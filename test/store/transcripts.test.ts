import { describe, expect, it } from 'vitest';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoTranscriptStore } from '../../src/store/dynamo-transcript-store.ts';
import type { TranscriptMessage } from '../../src/store/transcript-store.ts';
import { withTable } from './with-table.ts';

describe('DynamoTranscriptStore', () => {
  const { table } = withTable();

  it('appends and loads messages in order, tool calls included', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    const first: TranscriptMessage[] = [
      { role: 'user', content: 'run: ls' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }],
      },
    ];
    await transcripts.append('s1', first);
    await transcripts.append('s1', [{ role: 'tool', content: '{"output":"a"}', tool_call_id: 'c1', name: 'terminal' }]);
    expect(await transcripts.load('s1')).toEqual([
      ...first,
      { role: 'tool', content: '{"output":"a"}', tool_call_id: 'c1', name: 'terminal' },
    ]);
    expect(await transcripts.load('nobody')).toEqual([]);
  });

  it('stores a conversation far beyond 400 KB, with one message bigger than an item', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    const huge = '😀x'.repeat(300_000); // ~1.5 MB of UTF-8, surrogate pairs across chunk edges
    const many = Array.from(
      { length: 60 },
      (_, i): TranscriptMessage => ({ role: 'user', content: `${i} ${'y'.repeat(10_000)}` }),
    );
    await transcripts.append('big', many);
    await transcripts.append('big', [{ role: 'tool', content: huge, tool_call_id: 't' }]);
    const loaded = await transcripts.load('big');
    expect(loaded).toHaveLength(61);
    expect(loaded.slice(0, 60)).toEqual(many);
    expect(loaded[60]?.content).toBe(huge);
  });

  it('keeps concurrent appends apart', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    await Promise.all(Array.from({ length: 10 }, (_, i) => transcripts.append('race', [{ role: 'user', content: String(i) }])));
    const contents = (await transcripts.load('race')).map((m) => m.content).sort();
    expect(contents).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('drops a message whose chunks are incomplete rather than returning it corrupt', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    await transcripts.append('torn', [
      { role: 'user', content: 'z'.repeat(200_000) },
      { role: 'user', content: 'ok' },
    ]);
    await table().doc.send(
      new DeleteCommand({ TableName: table().tableName, Key: { PK: 'TRANSCRIPT#torn', SK: 'MSG#0000000000#00001' } }),
    );
    expect(await transcripts.load('torn')).toEqual([{ role: 'user', content: 'ok' }]);
  });

  it('loadRecent reads back from the end: the newest messages, whole, oldest first, with their sequence numbers', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    const many = Array.from({ length: 40 }, (_, i): TranscriptMessage => ({ role: 'user', content: `m${i}` }));
    const huge: TranscriptMessage = { role: 'tool', content: '😀'.repeat(100_000), tool_call_id: 't' }; // 4 chunks
    await transcripts.append('tail', many);
    await transcripts.append('tail', [huge, { role: 'user', content: 'last' }]);
    const recent = await transcripts.loadRecent('tail', { maxMessages: 3, maxChars: 10_000_000 });
    expect(recent).toEqual({ messages: [many[39], huge, { role: 'user', content: 'last' }], seqs: [39, 40, 41] });
    const byChars = await transcripts.loadRecent('tail', { maxMessages: 100, maxChars: 50 });
    expect(byChars.messages.at(-1)).toEqual({ role: 'user', content: 'last' });
    expect(byChars.messages.length).toBeLessThan(5);
    expect(byChars.seqs).toHaveLength(byChars.messages.length);
    expect((await transcripts.loadRecent('tail', { maxMessages: 1000, maxChars: 10_000_000 })).messages).toEqual(
      await transcripts.load('tail'),
    );
    expect(await transcripts.loadRecent('nobody', { maxMessages: 10, maxChars: 1000 })).toEqual({ messages: [], seqs: [] });
  });

  it('loadRange reads back exactly the messages of a range, a chunked one whole', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    const many = Array.from({ length: 12 }, (_, i): TranscriptMessage => ({ role: 'user', content: `r${i}` }));
    const huge: TranscriptMessage = { role: 'tool', content: '😀'.repeat(100_000), tool_call_id: 't' }; // 4 chunks
    await transcripts.append('range', many);
    await transcripts.append('range', [huge, { role: 'assistant', content: 'after' }]);
    // What a turn read as its window, read again by its place.
    const recent = await transcripts.loadRecent('range', { maxMessages: 4, maxChars: 10_000_000 });
    expect(await transcripts.loadRange('range', recent.seqs[0]!, recent.seqs.at(-1)!)).toEqual(recent);
    expect(await transcripts.loadRange('range', 9, 12)).toEqual({
      messages: [many[9], many[10], many[11], huge],
      seqs: [9, 10, 11, 12],
    });
    expect(await transcripts.loadRange('range', 0, 0)).toEqual({ messages: [many[0]], seqs: [0] });
    expect(await transcripts.loadRange('range', 20, 30)).toEqual({ messages: [], seqs: [] });
    expect(await transcripts.loadRange('nobody', 0, 5)).toEqual({ messages: [], seqs: [] });
  });

  it('loadRecent drops a torn message too', async () => {
    const transcripts = new DynamoTranscriptStore(table());
    await transcripts.append('torn2', [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'z'.repeat(200_000) },
      { role: 'user', content: 'b' },
    ]);
    await table().doc.send(
      new DeleteCommand({ TableName: table().tableName, Key: { PK: 'TRANSCRIPT#torn2', SK: 'MSG#0000000001#00002' } }),
    );
    expect(await transcripts.loadRecent('torn2', { maxMessages: 10, maxChars: 10_000_000 })).toEqual({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      seqs: [0, 2],
    });
    expect(await transcripts.loadRange('torn2', 0, 2)).toEqual({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      seqs: [0, 2],
    });
  });

  it('with a retention, every item of an append expires that far ahead, and META moves with the last append', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const transcripts = new DynamoTranscriptStore(table(), { retentionSeconds: 90 * 86_400, now: () => now });
    await transcripts.append('kept', [{ role: 'user', content: 'x'.repeat(DynamoTranscriptStore.CHUNK_CHARS + 10) }]);
    now = new Date('2026-02-01T00:00:00Z');
    await transcripts.append('kept', [{ role: 'assistant', content: 'later' }]);
    const { Items = [] } = await table().doc.send(
      new QueryCommand({
        TableName: table().tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': 'TRANSCRIPT#kept' },
      }),
    );
    const at = (iso: string) => Date.parse(iso) / 1000 + 90 * 86_400;
    expect(Items.map((item) => [item.SK, item.expires_at])).toEqual([
      ['META', at('2026-02-01T00:00:00Z')],
      ['MSG#0000000000#00000', at('2026-01-01T00:00:00Z')],
      ['MSG#0000000000#00001', at('2026-01-01T00:00:00Z')],
      ['MSG#0000000001#00000', at('2026-02-01T00:00:00Z')],
    ]);
    // Without one (local runs), nothing expires.
    await new DynamoTranscriptStore(table()).append('forever', [{ role: 'user', content: 'hi' }]);
    const forever = await table().doc.send(
      new QueryCommand({
        TableName: table().tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': 'TRANSCRIPT#forever' },
      }),
    );
    expect(forever.Items?.map((item) => item.expires_at)).toEqual([undefined, undefined]);
  });
});

import { describe, expect, it } from 'vitest';
import { gzipSync, gunzipSync } from 'node:zlib';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryPartition } from '../../src/store/dynamo-table.ts';
import { DynamoTraceStore, TRACE_ITEM_BYTES, type TraceRecord } from '../../src/store/trace-store.ts';
import { withTable } from './with-table.ts';

const record = (turn_id: string, at: string, hook: string): TraceRecord => ({
  turn_id,
  at,
  hook,
  source: 'plugin',
  callback: 'cb',
  decision: 'allow',
  duration_ms: 1,
});

describe('DynamoTraceStore', () => {
  const { table } = withTable();

  it('listSession: every record of the session’s turns, oldest turn first, a resumed turn once with both parts', async () => {
    const traces = new DynamoTraceStore(table());
    await traces.append(
      [
        record('turn-a', '2026-12-01T10:00:00.000Z', 'pre_llm_call'),
        record('turn-a', '2026-12-01T10:00:01.000Z', 'pre_tool_call'),
      ],
      's-1',
    );
    await traces.append([record('turn-b', '2026-12-01T11:00:00.000Z', 'pre_llm_call')], 's-1');
    // turn-a resumed after an approval, in a later invocation
    await traces.append([record('turn-a', '2026-12-01T10:05:00.000Z', 'post_tool_call')], 's-1');
    await traces.append([record('turn-c', '2026-12-01T10:30:00.000Z', 'pre_llm_call')], 's-2');
    await traces.append([record('turn-d', '2026-12-01T10:40:00.000Z', 'pre_llm_call')]); // no session: not indexed

    expect((await traces.listSession('s-1')).map((r) => `${r.turn_id} ${r.hook}`)).toEqual([
      'turn-a pre_llm_call',
      'turn-a pre_tool_call',
      'turn-a post_tool_call',
      'turn-b pre_llm_call',
    ]);
    expect((await traces.listSession('s-2')).map((r) => r.turn_id)).toEqual(['turn-c']);
    expect(await traces.listSession('nobody')).toEqual([]);
    expect(await traces.list('turn-d')).toHaveLength(1);
  });

  it('packs an invocation’s records into one gzipped item (a write unit per compressed KB, not per record), every field read back', async () => {
    const traces = new DynamoTraceStore(table());
    const full: TraceRecord = {
      ...record('turn-p', '2026-12-02T10:00:00.000Z', 'pre_tool_call'),
      source: 'shell',
      callback: 'shell_hook[pre_tool_call:./guard.sh]',
      exit_code: null,
      stdout: 'out "quoted" ✓',
      stderr: '',
      kwargs: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }),
      kwargs_history: { session_id: 's-9', from_seq: 3, to_seq: 9, count: 7 },
      call: 4,
      phase: 'decide',
      outcome: 'allow',
      outcome_digest: '-',
      result: '{}',
      plugin: 'guard',
      text: 'kept reply',
    };
    const many = Array.from({ length: 30 }, (_, i) => ({ ...full, call: i, duration_ms: i + 0.5 }));
    await traces.append(many, 's-p');

    const items = await queryPartition(table(), 'TRACE#turn-p', 'RUN#');
    expect(items).toHaveLength(1);
    // 30 records of ~600 bytes of JSON each, in well under 2 KB stored.
    expect((items[0]!.records_gz as Uint8Array).byteLength).toBeLessThan(2048);
    expect(await traces.list('turn-p')).toEqual(many);
  });

  it('spreads records over more items when they pass the item budget, in call order, and reads items from before packing', async () => {
    const traces = new DynamoTraceStore(table());
    const big = (i: number): TraceRecord => ({
      ...record('turn-q', '2026-12-02T11:00:00.000Z', `hook_${i}`),
      kwargs: '界'.repeat(60_000), // 180 KB of UTF-8 in 60,000 characters
    });
    // An item written one record per item, as before packing, earlier in the turn.
    await table().doc.send(
      new PutCommand({
        TableName: table().tableName,
        Item: {
          PK: 'TRACE#turn-q',
          SK: 'RUN#2026-12-02T10:59:00.000Z#old#000000',
          ...record('turn-q', '2026-12-02T10:59:00.000Z', 'legacy_hook'),
          exit_code: 3,
        },
      }),
    );
    await traces.append([big(0), big(1), record('turn-q', '2026-12-02T11:00:01.000Z', 'small'), big(2)]);

    const items = await queryPartition(table(), 'TRACE#turn-q', 'RUN#');
    // 180 KB records: two never share an item (the budget is 256 KiB); the small one joins the second.
    expect(items).toHaveLength(4);
    for (const item of items.slice(1))
      expect(gunzipSync(item.records_gz as Uint8Array).byteLength).toBeLessThanOrEqual(TRACE_ITEM_BYTES);
    const listed = await traces.list('turn-q');
    expect(listed.map((r) => r.hook)).toEqual(['legacy_hook', 'hook_0', 'hook_1', 'small', 'hook_2']);
    expect(listed[0]).toEqual({ ...record('turn-q', '2026-12-02T10:59:00.000Z', 'legacy_hook'), exit_code: 3 });
    expect(listed[1]?.kwargs).toBe('界'.repeat(60_000));
  });

  it('an item whose records do not unzip or parse lists nothing for it, and the rest of the turn still lists', async () => {
    const traces = new DynamoTraceStore(table());
    await traces.append([record('turn-r', '2026-12-02T12:00:00.000Z', 'pre_llm_call')]);
    for (const [sk, records_gz] of [
      ['RUN#2026-12-02T12:00:01.000Z#bad#000000', gzipSync('[{"hook":')],
      ['RUN#2026-12-02T12:00:02.000Z#bad#000000', gzipSync('{"hook":"not a list"}')],
      ['RUN#2026-12-02T12:00:03.000Z#bad#000000', gzipSync('[1, null, "x"]')],
      ['RUN#2026-12-02T12:00:04.000Z#bad#000000', Buffer.from('not gzip')],
    ] as const)
      await table().doc.send(new PutCommand({ TableName: table().tableName, Item: { PK: 'TRACE#turn-r', SK: sk, records_gz } }));
    expect((await traces.list('turn-r')).map((r) => r.hook)).toEqual(['pre_llm_call']);
  });
});

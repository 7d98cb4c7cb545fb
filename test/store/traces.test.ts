import { describe, expect, it } from 'vitest';
import { DynamoTraceStore, type TraceRecord } from '../../src/store/trace-store.ts';
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
});

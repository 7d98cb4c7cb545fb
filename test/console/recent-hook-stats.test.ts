import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ConsoleData } from '../../src/console/console-data.ts';
import { DynamoTraceStore, type TraceRecord } from '../../src/store/trace-store.ts';
import { withTable } from '../store/with-table.ts';

const run = (turn_id: string, at: string, duration_ms: number, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  turn_id,
  at,
  hook: 'pre_tool_call',
  source: 'plugin',
  plugin: 'guard',
  callback: 'no_rm',
  decision: 'allow',
  duration_ms,
  ...extra,
});

describe('ConsoleData.recentHookStats: per hook over the last hour', () => {
  const { table } = withTable();

  it('counts the runs of the turns of the last hour, across sessions and midnight, and none older', async () => {
    const traces = new DynamoTraceStore(table());
    const now = new Date('2026-12-04T00:20:00.000Z');
    // Yesterday's index, still inside the hour: counted.
    await traces.append([run('t-1', '2026-12-03T23:40:00.000Z', 10), run('t-1', '2026-12-03T23:40:01.000Z', 30)], 's-1');
    await traces.append(
      [
        run('t-2', '2026-12-04T00:10:00.000Z', 20),
        run('t-2', '2026-12-04T00:10:00.500Z', 5, { hook: 'pre_llm_call', plugin: undefined, callback: 'ctx' }),
      ],
      's-2',
    );
    // An observer-side row (no inline callback): not a run.
    await traces.append(
      [run('t-2', '2026-12-04T00:10:01.000Z', 0, { hook: 'post_tool_call', source: '-', callback: '-' })],
      's-2',
    );
    // Two hours ago: outside the window.
    await traces.append([run('t-0', '2026-12-03T22:15:00.000Z', 900)], 's-1');

    const { turns, stats } = await new ConsoleData({
      table: table(),
      sqs: new SQSClient({ region: 'us-east-1' }),
      dlqs: [],
      home: '/nowhere',
    }).recentHookStats({ now });

    expect(turns).toBe(2);
    expect(stats).toEqual([
      { hook: 'pre_llm_call', callback: 'ctx', runs: 1, p50_ms: 5, p95_ms: 5 },
      { hook: 'pre_tool_call', callback: 'guard: no_rm', runs: 3, p50_ms: 20, p95_ms: 30 },
    ]);
  });
});

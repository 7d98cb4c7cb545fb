import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { traceObserverRuns } from '../../src/agent/trace/observer-trace.ts';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { describe, expect, it } from 'vitest';
import { queryPartition } from '../../src/store/dynamo-table.ts';
import {
  RecentTurnsCursorError,
  recentTurnsKey,
  recentTurnsShard,
  TRACE_RECENT_SHARDS,
} from '../../src/store/recent-turns-index.ts';
import { DynamoTraceStore, type TraceRecord } from '../../src/store/trace-store.ts';
import { withTable } from './with-table.ts';

const record = (turn_id: string, at: string): TraceRecord => ({
  turn_id,
  at,
  hook: 'pre_llm_call',
  source: 'plugin',
  callback: 'cb',
  decision: 'allow',
  duration_ms: 1,
});

/** Turns `ids` on `day`, one a minute from 10:00 in that order, appended odd ones first (not in time order); their ids newest first. */
async function appendTurns(traces: DynamoTraceStore, day: string, count: number | string[], tag: string): Promise<string[]> {
  const ids = typeof count === 'number' ? Array.from({ length: count }, (_, i) => `${tag}-${i}`) : count;
  const turns = ids.map((id, i) => ({ id, at: `${day}T10:${String(i).padStart(2, '0')}:00.000Z` }));
  for (const turn of [...turns.filter((_, i) => i % 2 === 1), ...turns.filter((_, i) => i % 2 === 0)])
    await traces.append([record(turn.id, turn.at)], `s-${tag}`);
  return turns.map((t) => t.id).reverse();
}

describe('recent-turns index (sharded by turn id)', () => {
  const { table } = withTable();

  it('writes each entry to one shard of its day and lists every shard merged, newest first', async () => {
    const traces = new DynamoTraceStore(table());
    const newestFirst = await appendTurns(traces, '2026-11-01', 24, 'merge');
    // The turns did spread: more than one shard holds some, and each entry is under its own shard only.
    expect(new Set(newestFirst.map(recentTurnsShard)).size).toBeGreaterThan(1);
    const shard = recentTurnsKey('2026-11-01T10:00:00.000Z', 'merge-0');
    const items = await queryPartition(table(), shard, 'TURN#');
    expect(items.map((i) => i.turn_id)).toContain('merge-0');
    expect(items.every((i) => recentTurnsShard(String(i.turn_id)) === recentTurnsShard('merge-0'))).toBe(true);
    expect(await queryPartition(table(), 'TRACE_RECENT#2026-11-01', 'TURN#')).toEqual([]);

    const listed = await traces.recentTurns({ now: new Date('2026-11-01T23:00:00Z'), days: 1 });
    expect(listed.map((t) => t.turn_id)).toEqual(newestFirst);
    expect(listed.map((t) => t.at)).toEqual([...listed.map((t) => t.at)].sort().reverse());
    expect(
      (await traces.recentTurns({ now: new Date('2026-11-01T23:00:00Z'), days: 1, limit: 5 })).map((t) => t.turn_id),
    ).toEqual(newestFirst.slice(0, 5));
  });

  it('pages with the cursor across shards and days: every turn once, in order', async () => {
    const traces = new DynamoTraceStore(table());
    const day2 = await appendTurns(traces, '2026-11-03', 13, 'page-b');
    const day1 = await appendTurns(traces, '2026-11-02', 11, 'page-a');
    const all = [...day2, ...day1];
    const now = new Date('2026-11-03T23:00:00Z');
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await traces.recentTurns({ now, days: 2, limit: 4, ...(before ? { before } : {}) });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(4);
      seen.push(...page.map((t) => t.turn_id));
      before = page.at(-1)!.cursor;
    }
    expect(seen).toEqual(all);
  });

  it('pages through a shard that holds more than a page: each Query resumes where the last stopped', async () => {
    const traces = new DynamoTraceStore(table());
    const candidates = Array.from({ length: 400 }, (_, i) => `hot-${i}`);
    const oneShard = candidates.filter((id) => recentTurnsShard(id) === 3).slice(0, 10);
    const others = candidates.filter((id) => recentTurnsShard(id) !== 3).slice(0, 4);
    const newestFirst = await appendTurns(
      traces,
      '2026-11-05',
      [...oneShard.slice(0, 5), ...others, ...oneShard.slice(5)],
      'hot',
    );
    const now = new Date('2026-11-05T23:00:00Z');
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await traces.recentTurns({ now, days: 1, limit: 3, ...(before ? { before } : {}) });
      if (page.length === 0) break;
      seen.push(...page.map((t) => t.turn_id));
      before = page.at(-1)!.cursor;
    }
    expect(seen).toEqual(newestFirst);
    expect((await traces.recentTurns({ now, days: 1, limit: 7 })).map((t) => t.turn_id)).toEqual(newestFirst.slice(0, 7));
  });

  it('reads entries written under the unsharded day key (tables written before the shards), merged in order', async () => {
    const traces = new DynamoTraceStore(table());
    const sharded = await appendTurns(traces, '2026-11-04', 6, 'new');
    // As the store wrote them before: PK TRACE_RECENT#<day>, the same sort key and attributes.
    for (const [i, minute] of [
      [0, '10:02:30'],
      [1, '10:05:30'],
    ] as const) {
      await table().doc.send(
        new PutCommand({
          TableName: table().tableName,
          Item: {
            PK: 'TRACE_RECENT#2026-11-04',
            SK: `TURN#2026-11-04T${minute}.000Z#legacy${i}`,
            session_id: 's-old',
            turn_id: `old-${i}`,
            expires_at: 4_000_000_000,
          },
        }),
      );
    }
    const listed = await traces.recentTurns({ now: new Date('2026-11-04T23:00:00Z'), days: 1 });
    expect(listed.map((t) => t.turn_id)).toEqual(['old-1', ...sharded.slice(0, 3), 'old-0', ...sharded.slice(3)]);
    const { turns } = await traces.listTurns({}, { now: new Date('2026-11-04T23:00:00Z'), limit: 50 });
    expect(turns.map((t) => t.turn_id)).toContain('old-0');
  });

  it("lists a turn by its observer-side hook runs too (trace --list --hook / --decision), merged into the turn's entry", async () => {
    const traces = new DynamoTraceStore(table());
    // Now, as the observer's own records are (it runs right after the turn).
    await traces.append([record('obs-turn', new Date().toISOString())], 's-obs');
    // What the observer λ records when agent-log (a gateway hook) ran on the turn's agent:start.
    const observed = traceObserverRuns(traces, createMemoryLogger());
    await observed({ type: 'agent:start', session_id: 's-obs', turn_id: 'obs-turn' }, async () => {
      recordHookRun({ hook: 'agent:start', source: 'gateway', callback: 'agent-log', durationMs: 2 });
    });
    const now = new Date();
    const byHook = await traces.listTurns({ hook: 'agent-log' }, { now });
    expect(byHook.turns.map((t) => t.turn_id)).toEqual(['obs-turn']);
    expect(byHook.turns[0]!.hooks).toEqual(expect.arrayContaining(['pre_llm_call', 'agent:start', 'agent-log']));
    expect((await traces.listTurns({ decision: 'observed' }, { now })).turns.map((t) => t.turn_id)).toEqual(['obs-turn']);
    expect((await traces.listTurns({}, { now })).total).toBe(1);
  });

  it('refuses a cursor it did not hand out', async () => {
    const traces = new DynamoTraceStore(table());
    await expect(traces.recentTurns({ before: 'TURN#x' })).rejects.toBeInstanceOf(RecentTurnsCursorError);
    await expect(traces.recentTurns({ before: 'ZZZ' })).rejects.toBeInstanceOf(RecentTurnsCursorError);
  });

  it('has a fixed shard count that every shard number stays under', () => {
    expect(TRACE_RECENT_SHARDS).toBe(8);
    for (let i = 0; i < 200; i++) expect(recentTurnsShard(`t-${i}`)).toBeLessThan(TRACE_RECENT_SHARDS);
  });
});

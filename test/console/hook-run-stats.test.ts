import { expect, it } from 'vitest';
import { hookRunStats } from '../../src/console/hook-run-stats.ts';
import type { TraceRecord } from '../../src/store/trace-store.ts';

const run = (hook: string, callback: string, duration_ms: number, extra: Partial<TraceRecord> = {}) =>
  ({ at: '2026-01-01T00:00:00.000Z', hook, source: 'plugin', callback, duration_ms, decision: 'allow', ...extra }) as TraceRecord;

it('counts each hook callback over the records, with nearest-rank p50 and p95, skipping rows where nobody ran', () => {
  const records = [
    ...[5, 1, 3, 2, 4, 100, 6, 7, 8, 9].map((ms) => run('pre_tool_call', 'no_rm', ms, { plugin: 'guard' })),
    run('pre_llm_call', 'shell_hook[pre_llm_call:x.sh]', 40, { source: 'shell' }),
    run('agent:start', '-', 3, { source: '-' }),
  ];
  expect(hookRunStats(records)).toEqual([
    { hook: 'pre_llm_call', callback: 'shell_hook[pre_llm_call:x.sh]', runs: 1, p50_ms: 40, p95_ms: 40 },
    { hook: 'pre_tool_call', callback: 'guard: no_rm', runs: 10, p50_ms: 5, p95_ms: 100 },
  ]);
  expect(hookRunStats([])).toEqual([]);
});

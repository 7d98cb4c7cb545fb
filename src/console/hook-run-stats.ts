/**
 * What the stats read of one trace record (a `TraceRecord` fits). No import: the console's
 * browser code (src/console/browser/) uses this module as well.
 */
export interface HookRunSample {
  readonly hook: string;
  readonly source: string;
  readonly plugin?: string | undefined;
  readonly callback: string;
  readonly duration_ms: number;
}

/** One hook callback's runs over some turns: how many, and the p50 / p95 of their durations. */
export interface HookRunStats {
  hook: string;
  /** `<plugin>: <callback>` for a plugin's, else the callback's name. */
  callback: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
}

/** The nearest-rank percentile of sorted values (0 for none). */
function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Per hook and callback, runs and p50 / p95 durations over trace records (the console's
 * "per hook in this session"); rows where no callback ran inline (`source: '-'`) do not count.
 *
 * @example
 * hookRunStats(await traces.listSession(sessionId)); // [{ hook: 'pre_tool_call', callback: 'guard: no_rm', runs: 3, p50_ms: 1, p95_ms: 4 }]
 */
export function hookRunStats(records: readonly HookRunSample[]): HookRunStats[] {
  const by = new Map<string, { hook: string; callback: string; durations: number[] }>();
  for (const r of records) {
    if (r.source === '-') continue;
    const callback = r.plugin ? `${r.plugin}: ${r.callback}` : r.callback;
    const key = `${r.hook}\u0000${callback}`;
    const entry = by.get(key) ?? { hook: r.hook, callback, durations: [] };
    entry.durations.push(r.duration_ms);
    by.set(key, entry);
  }
  return [...by.values()]
    .sort((a, b) => (a.hook === b.hook ? a.callback.localeCompare(b.callback) : a.hook.localeCompare(b.hook)))
    .map(({ hook, callback, durations }) => {
      const sorted = [...durations].sort((x, y) => x - y);
      return { hook, callback, runs: sorted.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95) };
    });
}

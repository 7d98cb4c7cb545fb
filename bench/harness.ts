/**
 * Shared pieces of the benchmarks: every figure is printed as a ratio against a baseline
 * measured in the same run, because absolute times on a shared 2-core machine mean little.
 */

export interface Figure {
  /**
   * Stable id of the figure in `npm run bench -- --json FILE` (docs/performance.md): one of
   * the headline ids (`shell-spawn`, `engine-invoke`, `webhook-ack`, `observer-pipeline`,
   * `cold-import`, `turn`, `http-hook`) or `<headline>.<detail>` for a supporting figure.
   */
  id: string;
  /** What was measured, e.g. `engine: pre_tool_call over 10 plugins`. */
  name: string;
  /** What it is compared with, e.g. `hand-written loop`. */
  baseline: string;
  unit: string;
  value: number;
  baselineValue: number;
  /** `lower` when smaller is better (time), `higher` when larger is better (throughput). */
  better: 'lower' | 'higher';
  /** Any extra facts worth printing (p50/p99…). */
  notes?: string;
  /** The goal for the ratio, e.g. `<= 1.0` (headline figures). */
  goal?: string;
}

/** One figure as `--json` writes it. */
export interface JsonFigure {
  id: string;
  value: number;
  /** What the figure is measured against (its description). */
  baseline: string;
  baselineValue: number;
  ratio: number;
  better: 'lower' | 'higher';
}

/** A bench file's default export. */
export type Bench = () => Promise<Figure[]>;

export interface Samples {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  n: number;
}

export function summarise(samples: number[]): Samples {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), mean, n: sorted.length };
}

/** Times `iterations` sequential calls of `fn`, in milliseconds each. */
export async function sample(iterations: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Runs baseline and candidate in alternating rounds so that machine noise hits both alike;
 * returns all samples of each.
 */
export async function interleave(
  rounds: number,
  perRound: number,
  baseline: () => unknown,
  candidate: () => unknown,
): Promise<{ baseline: number[]; candidate: number[] }> {
  const b: number[] = [];
  const c: number[] = [];
  for (let r = 0; r < rounds; r++) {
    b.push(...(await sample(perRound, baseline)));
    c.push(...(await sample(perRound, candidate)));
  }
  return { baseline: b, candidate: c };
}

/** candidate / baseline, oriented so that < 1 is better for `lower` and > 1 for `higher`. */
export function ratioOf(figure: Figure): number {
  return figure.value / figure.baselineValue;
}

/** The headline ids `--json` always carries when every bench runs (docs/performance.md). */
export const HEADLINE_IDS = [
  'shell-spawn',
  'engine-invoke',
  'webhook-ack',
  'observer-pipeline',
  'cold-import',
  'turn',
  'http-hook',
  'turn-long-session',
] as const;

/**
 * The figures as `--json` writes them. Throws when an id is repeated or is not a headline id
 * or `<headline id>.<detail>`: the ids are what other tools and the docs key on.
 *
 * @example
 * await writeFile('bench.json', JSON.stringify(jsonFigures(figures), null, 2));
 */
export function jsonFigures(figures: readonly Figure[]): JsonFigure[] {
  const seen = new Set<string>();
  for (const { id } of figures) {
    if (seen.has(id)) throw new Error(`figure id ${id} is used twice`);
    seen.add(id);
    if (!HEADLINE_IDS.some((headline) => id === headline || id.startsWith(`${headline}.`))) {
      throw new Error(`figure id ${id} is neither a headline id (${HEADLINE_IDS.join(', ')}) nor <headline>.<detail>`);
    }
  }
  return figures.map((f) => ({
    id: f.id,
    value: f.value,
    baseline: f.baseline,
    baselineValue: f.baselineValue,
    ratio: ratioOf(f),
    better: f.better,
  }));
}

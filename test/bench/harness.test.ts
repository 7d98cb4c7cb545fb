import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonFigures, type Figure } from '../../bench/harness.ts';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));

const figure = (id: string, value: number, baselineValue: number): Figure => ({
  id,
  name: `figure ${id}`,
  baseline: 'python',
  unit: 'ms',
  value,
  baselineValue,
  better: 'lower',
  notes: 'p99 …',
  goal: '<= 1.0',
});

describe('bench --json figures', () => {
  it('writes {id, value, baseline, baselineValue, ratio, better} for every figure, in order', () => {
    expect(jsonFigures([figure('shell-spawn', 3, 4), figure('shell-spawn.grown-heap', 5, 2.5)])).toEqual([
      { id: 'shell-spawn', value: 3, baseline: 'python', baselineValue: 4, ratio: 0.75, better: 'lower' },
      { id: 'shell-spawn.grown-heap', value: 5, baseline: 'python', baselineValue: 2.5, ratio: 2, better: 'lower' },
    ]);
  });

  it('refuses a repeated id or one outside the headline ids', () => {
    expect(() => jsonFigures([figure('turn', 1, 1), figure('turn', 2, 1)])).toThrow(/turn is used twice/);
    expect(() => jsonFigures([figure('turnaround', 1, 1)])).toThrow(/neither a headline id/);
  });

  it('accepts every figure id a bench declares (a whole `npm run bench -- --json` run must not fail at the end)', async () => {
    const files = (await readdir(BENCH_DIR)).filter((f) => f.endsWith('.bench.ts'));
    const ids: string[] = [];
    // A figure is an object literal whose `id` comes right before its `name`.
    for (const file of files) {
      for (const [, id] of (await readFile(`${BENCH_DIR}${file}`, 'utf8')).matchAll(/\bid: '([^']+)',\s*name\b/g)) ids.push(id!);
    }
    expect(ids).toContain('turn-long-session');
    expect(jsonFigures(ids.map((id) => figure(id, 1, 1))).map((f) => f.id)).toEqual(ids);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonFigures, type Figure } from '../../bench/harness.ts';

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
});

import { describe, expect, it } from 'vitest';
import { SettledDeliveries } from '../../src/gateway/dispatch/settled-deliveries.ts';

describe('SettledDeliveries', () => {
  it('remembers a delivery for its window, then forgets it', () => {
    const settled = new SettledDeliveries(1_000);
    settled.add('a', 0);
    expect([settled.has('a', 999), settled.has('a', 1_000), settled.has('b', 0)]).toEqual([true, false, false]);
  });

  it('stays within its size, dropping the oldest first, and drops expired entries as it goes', () => {
    const settled = new SettledDeliveries(1_000, 2);
    settled.add('a', 0);
    settled.add('b', 1);
    settled.add('c', 2);
    expect(['a', 'b', 'c'].map((id) => settled.has(id, 3))).toEqual([false, true, true]);
    settled.add('d', 1_500); // b and c are past the window by now
    expect(['b', 'c', 'd'].map((id) => settled.has(id, 1_500))).toEqual([false, false, true]);
  });
});

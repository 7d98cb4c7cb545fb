import { describe, expect, it } from 'vitest';
import { settlesInTime } from '../../src/agent/turn/settles-in-time.ts';

const never = new Promise<void>(() => {});
const settledIn = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('settlesInTime', () => {
  it('without a signal waits as long as the work takes; a rejection counts as settled', async () => {
    expect(await settlesInTime(settledIn(20), undefined, 1)).toBe(true);
    expect(await settlesInTime(Promise.reject(new Error('no')), undefined, 1)).toBe(true);
  });

  it('with a signal not yet aborted, work that settles first is in time', async () => {
    const deadline = new AbortController();
    expect(await settlesInTime(settledIn(10), deadline.signal, 1)).toBe(true);
  });

  it('gives up a grace after the signal aborts, counted from now when it already has', async () => {
    expect(await settlesInTime(never, AbortSignal.abort(), 30)).toBe(false);

    const later = new AbortController();
    setTimeout(() => later.abort(), 30);
    expect(await settlesInTime(never, later.signal, 30)).toBe(false);
    // Work that settles within the grace is in time even past the deadline.
    expect(await settlesInTime(settledIn(10), AbortSignal.abort(), 200)).toBe(true);
  });
});

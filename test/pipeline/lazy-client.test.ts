import { describe, expect, it } from 'vitest';
import { lazyClient, resolveClient } from '../../src/pipeline/lazy-client.ts';

describe('lazyClient', () => {
  it('builds nothing until asked, then once, however many ask at the same time', async () => {
    let builds = 0;
    const get = lazyClient(async () => ({ n: ++builds }));
    expect(builds).toBe(0);
    expect(get.built()).toBeUndefined();
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(builds).toBe(1);
    expect(get.built()).toBe(a);
  });

  it('tries again after a failed build instead of keeping the failure', async () => {
    let calls = 0;
    const get = lazyClient(async () => {
      if (++calls === 1) throw new Error('no region');
      return { ok: true };
    });
    await expect(get()).rejects.toThrow('no region');
    expect(await get()).toEqual({ ok: true });
  });

  it('resolveClient takes a client or a loader', async () => {
    const client = { c: 1 };
    expect(await resolveClient(client)).toBe(client);
    expect(await resolveClient(async () => client)).toBe(client);
  });
});

import { describe, expect, it } from 'vitest';
import type { AnswerOf } from '../../src/hooks/catalogue.ts';
import type { HookEngine } from '../../src/hooks/hook-engine.ts';
import { EngineHolder } from '../../src/local/engine-holder.ts';
import { isLoadedFile, mayHoldLoadedFiles } from '../../src/local/hooks-home-files.ts';

/** An in-memory engine for the holder's pure logic: answers its name, counts closes. */
function fakeEngine(name: string): HookEngine & { closes: number } {
  const engine: HookEngine & { closes: number } = {
    closes: 0,
    home: `/home/${name}`,
    config: { name },
    // Not a real answer: the test only needs to see which engine answered.
    invoke: async (hook) => ({ engine: name }) as unknown as AnswerOf<typeof hook>,
    invokeAll: async () => [name],
    emit: async () => {},
    emitCollect: async () => [name],
    hasHook: () => true,
    observe: async () => {},
    runObservers: async () => {},
    hasObservers: () => false,
    close: async () => {
      engine.closes += 1;
    },
  };
  return engine;
}

describe('EngineHolder', () => {
  it('sends new calls to the swapped-in engine and closes the old one once idle', async () => {
    const one = fakeEngine('one');
    const two = fakeEngine('two');
    const holder = new EngineHolder(one);
    expect(await holder.invoke('pre_tool_call', {})).toEqual({ engine: 'one' });
    const { closed } = holder.swap(two);
    await closed;
    expect(one.closes).toBe(1);
    expect(await holder.invoke('pre_tool_call', {})).toEqual({ engine: 'two' });
    expect(holder.home).toBe('/home/two');
  });

  it('pinned work keeps its engine across a swap; the old engine closes only after it', async () => {
    const one = fakeEngine('one');
    const two = fakeEngine('two');
    const holder = new EngineHolder(one);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: unknown[] = [];
    const work = holder.pinned(async () => {
      seen.push(await holder.invokeAll('pre_llm_call', {}));
      await gate;
      seen.push(await holder.invokeAll('pre_llm_call', {}), holder.config);
    });
    await Promise.resolve();
    const { closed } = holder.swap(two);
    // Outside the pinned work, the new engine answers at once.
    expect(await holder.invokeAll('pre_llm_call', {})).toEqual(['two']);
    expect(one.closes).toBe(0);
    release();
    await work;
    await closed;
    expect(seen).toEqual([['one'], ['one'], { name: 'one' }]);
    expect(one.closes).toBe(1);
  });

  it('close() closes the current engine once', async () => {
    const one = fakeEngine('one');
    const holder = new EngineHolder(one);
    await holder.close();
    await holder.close();
    expect(one.closes).toBe(1);
  });
});

describe('which hooks-home files a reload is for', () => {
  it.each([
    ['config.yaml', true],
    ['shell-hooks-allowlist.json', true],
    ['shell-hooks-allowlist.json.lock', false],
    ['shell-hooks-allowlist.json.a1b2.tmp', false],
    ['plugins/audit/index.ts', true],
    ['plugins/audit/lib/words.mjs', true],
    ['plugins/audit/plugin.yaml', true],
    ['hooks/log/HOOK.yaml', true],
    ['hooks/log/handler.js', true],
    ['plugins/audit/state.json', false],
    ['plugins/audit/.index.ts.swp', false],
    ['plugins/audit/index.ts~', false],
    ['plugins/audit/#index.ts#', false],
    ['plugins/audit/node_modules/x/index.js', false],
    ['plugins/audit/logs/today.ts', false],
    ['logs/activity.log', false],
    // A script edit reloads, so a guard it turns off is announced (§5.5).
    ['agent-hooks/guard.sh', true],
    ['agent-hooks/notes.txt', false],
    ['.hookgate/dev-endpoints.json', false],
    ['BOOT.md', false],
  ])('%s → %s', (path, reloads) => {
    expect(isLoadedFile(path)).toBe(reloads);
  });

  it('descends only where loaded files can be', () => {
    expect(mayHoldLoadedFiles('')).toBe(true);
    expect(mayHoldLoadedFiles('plugins/audit')).toBe(true);
    expect(mayHoldLoadedFiles('hooks')).toBe(true);
    expect(mayHoldLoadedFiles('logs')).toBe(false);
    expect(mayHoldLoadedFiles('.hookgate')).toBe(false);
    expect(mayHoldLoadedFiles('plugins/audit/node_modules')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { collectHookRuns, hookRunsWanted, recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { CallbackRegistry } from '../../src/hooks/callback-registry.ts';
import type { HookRunRecord } from '../../src/hooks/hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { runCallbacks, runObserverCallbacks } from '../../src/hooks/run-callbacks.ts';

/** A decision and an observer callback, each returning 'ran'. */
function callbacksOf(hook: string) {
  const registry = new CallbackRegistry();
  registry.register({ hook, name: 'one', source: 'plugin', plugin: 'p', fn: () => 'ran' });
  registry.register({
    hook,
    name: 'two',
    source: 'plugin',
    plugin: 'p',
    fn: () => {
      throw new TypeError('boom');
    },
  });
  return registry.callbacks(hook);
}

describe('callback runs are traced only when someone keeps them', () => {
  const logger = createMemoryLogger();

  it('reports each run, its plugin, result or error, when onRunWanted says yes or is unset', async () => {
    for (const onRunWanted of [undefined, () => true]) {
      const runs: HookRunRecord[] = [];
      const context = { logger, onRun: (r: HookRunRecord) => runs.push(r), ...(onRunWanted ? { onRunWanted } : {}) };
      expect(await runCallbacks('pre_tool_call', callbacksOf('pre_tool_call'), {}, context)).toEqual(['ran']);
      await runObserverCallbacks('post_tool_call', callbacksOf('post_tool_call'), {}, context);
      expect(runs.map((r) => [r.hook, r.plugin, r.callback, r.result ?? r.error])).toEqual([
        ['pre_tool_call', 'p', 'one', 'ran'],
        ['pre_tool_call', 'p', 'two', 'boom'],
        ['post_tool_call', 'p', 'one', 'ran'],
        ['post_tool_call', 'p', 'two', 'boom'],
      ]);
    }
  });

  it('reports nothing when onRunWanted says no, and the callbacks still run', async () => {
    const runs: HookRunRecord[] = [];
    const context = { logger, onRun: (r: HookRunRecord) => runs.push(r), onRunWanted: () => false };
    expect(await runCallbacks('pre_tool_call', callbacksOf('pre_tool_call'), {}, context)).toEqual(['ran']);
    expect(runs).toEqual([]);
  });

  it('hookRunsWanted is true inside a collecting scope only, where recordHookRun keeps the runs', async () => {
    const context = { logger, onRun: recordHookRun, onRunWanted: hookRunsWanted };
    expect(hookRunsWanted()).toBe(false);
    const { runs } = await collectHookRuns(() => runCallbacks('pre_tool_call', callbacksOf('pre_tool_call'), {}, context));
    expect(runs.map((r) => r.callback)).toEqual(['one', 'two']);
  });
});

import { AsyncLocalStorage } from 'node:async_hooks';
import type { HookRunRecord } from '../../hooks/hook-engine.ts';

const scope = new AsyncLocalStorage<HookRunRecord[]>();

/**
 * Pass this as the engine's `onRun` option: each callback run is attributed to the hook
 * call in progress in the same async context (a turn's `TurnHooks.decide`/`observe`), so
 * traces can name the plugin, shell hook or gateway hook behind a decision. Runs outside
 * any turn (the observer consumer) are ignored.
 *
 * @example
 * const engine = await createHookEngine({ home, onRun: recordHookRun, onRunWanted: hookRunsWanted });
 */
export function recordHookRun(record: HookRunRecord): void {
  scope.getStore()?.push(record);
}

/** Pass as the engine's `onRunWanted` beside `recordHookRun`: true inside a collecting scope only. */
export function hookRunsWanted(): boolean {
  return scope.getStore() !== undefined;
}

/** Runs `fn`, collecting the callback runs it causes. */
export async function collectHookRuns<T>(fn: () => Promise<T>): Promise<{ value: T; runs: HookRunRecord[] }> {
  const runs: HookRunRecord[] = [];
  const value = await scope.run(runs, fn);
  return { value, runs };
}

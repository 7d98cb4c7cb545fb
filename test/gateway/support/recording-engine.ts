import type { AnswerOf, HookName } from '../../../src/hooks/catalogue.ts';
import type { HookEngine, Kwargs } from '../../../src/hooks/hook-engine.ts';

/**
 * An in-memory HookEngine for gateway unit tests (pure dispatch logic): answers come
 * from the test, every call is recorded in order.
 */
export interface RecordingEngine extends HookEngine {
  calls: { op: 'invoke' | 'emitCollect' | 'observe'; name: string; payload: Kwargs; meta?: unknown }[];
  answers: { [H in HookName]?: (kwargs: Kwargs) => AnswerOf<H> | Promise<AnswerOf<H>> };
  collect: Record<string, (context: Kwargs) => unknown[] | Promise<unknown[]>>;
  failObserve?: boolean;
}

export function recordingEngine(): RecordingEngine {
  const engine: RecordingEngine = {
    calls: [],
    answers: {},
    collect: {},
    async invoke(hook, kwargs) {
      engine.calls.push({ op: 'invoke', name: hook, payload: kwargs });
      const answer = engine.answers[hook] as
        | ((kwargs: Kwargs) => AnswerOf<typeof hook> | Promise<AnswerOf<typeof hook>>)
        | undefined;
      return (await answer?.(kwargs)) ?? ({} as AnswerOf<typeof hook>);
    },
    async invokeAll() {
      return [];
    },
    async emit() {},
    async emitCollect(event, context) {
      engine.calls.push({ op: 'emitCollect', name: event, payload: context ?? {} });
      return (await engine.collect[event]?.(context ?? {})) ?? [];
    },
    // Every hook "has" a callback here, so call sites always invoke and the test sees the call.
    hasHook: () => true,
    async observe(type, payload, meta) {
      engine.calls.push({ op: 'observe', name: type, payload, meta });
      if (engine.failObserve) throw new Error('sink down');
    },
    async runObservers() {},
    hasObservers: () => false,
    async close() {},
  };
  return engine;
}

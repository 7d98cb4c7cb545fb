import type { HookEngine } from '../../src/hooks/hook-engine.ts';
import type { ObserverSink } from '../../src/hooks/observer-sink.ts';

/**
 * The engine the gateway bench runs with: a hook-less engine answering like the real one
 * with nothing registered (replaced by the real engine over an empty home once it exists).
 */
export async function benchEngine(_sink: ObserverSink): Promise<{ engine: HookEngine; label: string }> {
  const engine: HookEngine = {
    invoke: async () => ({}),
    invokeAll: async () => [],
    emit: async () => {},
    emitCollect: async () => [],
    hasHook: () => false,
    observe: async () => {},
    runObservers: async () => {},
    close: async () => {},
  };
  return { engine, label: 'stand-in with no hooks (real engine not yet available)' };
}

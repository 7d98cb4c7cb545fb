import type { HookEngine } from '../../hooks/hook-engine.ts';

/** An engine with nothing registered: for agents run where no hooks home is loaded. */
export const NO_HOOKS_ENGINE: HookEngine = {
  invoke: async () => ({}),
  invokeAll: async () => [],
  emit: async () => {},
  emitCollect: async () => [],
  hasHook: () => false,
  observe: async () => {},
  runObservers: async () => {},
  hasObservers: () => false,
  close: async () => {},
};

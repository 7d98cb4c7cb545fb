import type { AnswerOf, ObserverAnswer } from '../../hooks/catalogue.ts';
import type { HookEngine } from '../../hooks/hook-engine.ts';

const NOTHING: ObserverAnswer = {};

/** An engine with nothing registered: for agents run where no hooks home is loaded. */
export const NO_HOOKS_ENGINE: HookEngine = {
  // No callback ran: every hook answers as an observer does (what the engine's rules give for no results differs, but nothing calls this).
  invoke: async (hook) => NOTHING as AnswerOf<typeof hook>,
  invokeAll: async () => [],
  emit: async () => {},
  emitCollect: async () => [],
  hasHook: () => false,
  observe: async () => {},
  runObservers: async () => {},
  hasObservers: () => false,
  close: async () => {},
};

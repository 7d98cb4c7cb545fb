/** The `hookgate` package root: the hook engine as a library (architecture §4). */
export type { HookEngine, HookEngineOptions, HookRunRecord, Kwargs } from './hooks/hook-engine.ts';
export type { ObserverEvent, ObserverSink } from './hooks/observer-sink.ts';

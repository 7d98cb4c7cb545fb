/** The `hookgate` package root: the hook engine as a library (architecture §4). */
export { createHookEngine, loadHookEngine } from './hooks/create-hook-engine.ts';
export type { CreateHookEngineOptions, LoadedHookEngine, RegistryListing } from './hooks/create-hook-engine.ts';
export type { HookEngine, HookEngineOptions, HookRunRecord, Kwargs } from './hooks/hook-engine.ts';
export type { ObserverEvent, ObserverSink } from './hooks/observer-sink.ts';
export { discoverHooksHome } from './hooks/discover-hooks-home.ts';
export type { HooksHomeDescription, PluginDescription, GatewayHookDescription } from './hooks/hooks-home-description.ts';
export {
  blockMessage,
  commandDecision,
  firstNonEmptyString,
  firstString,
  gatewayDispatchAction,
  joinLlmContext,
} from './hooks/aggregate/index.ts';
export type { CommandDecision, GatewayDispatchAction } from './hooks/aggregate/index.ts';
export {
  HOOKS,
  HOOK_KINDS,
  HOOK_NAMES,
  KWARGS_KEY_ORDER,
  KWARGS_SCHEMAS,
  TELEMETRY_SCHEMA_VERSION,
  VALID_HOOK_NAMES_TEXT,
  hookAnswer,
  hookKind,
  isHookName,
  orderKwargs,
} from './hooks/catalogue.ts';
export type {
  AnswerOf,
  DecisionHookName,
  GatewayEventType,
  HookKind,
  HookName,
  KwargsOf,
  ObserverHookName,
} from './hooks/catalogue.ts';
export type { PluginContext } from './hooks/plugins/plugin-context.ts';
export type {
  CommandTraceRecord,
  PluginCommandContext,
  PluginCommandHandler,
  PluginCommandInfo,
} from './hooks/plugins/plugin-commands.ts';
export type { GatewayHandler, GatewayHookInfo } from './hooks/gateway-hooks/gateway-hook-registry.ts';
export { renderWireJson } from './hooks/wire-json.ts';
export { closeShellHookRunners } from './hooks/shell/spawn/run-shell-command.ts';
export { HookgateError } from './errors/hookgate-error.ts';
export { runOneShotAgent } from './agent/one-shot-agent.ts';
export { createMemoryLogger, createStderrLogger } from './hooks/hook-logger.ts';
export type { HookLogger, LogLevel } from './hooks/hook-logger.ts';

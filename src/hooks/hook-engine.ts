import type {
  AnswerOf,
  CallableHookName,
  GatewayEventType,
  HookName,
  KwargsOf,
  ObserverHookName,
  PayloadOf,
} from './catalogue.ts';
import type { RunDetail } from './run-detail.ts';
import type { HookLogger } from './hook-logger.ts';
import type { ObserverSink } from './observer-sink.ts';
import type { PluginCommandContext, PluginCommandInfo, PluginCommandOutcome } from './plugins/plugin-commands.ts';
import type { AllowlistStore } from './shell/consent/allowlist-store.ts';
import type { ArgsValidator } from './tool-call-rewrite.ts';

export type Kwargs = Record<string, unknown>;

/** What `observe` takes: an observer plugin hook or a gateway event (`agent:step`, `command:reset`…). */
export type ObservedType = ObserverHookName | GatewayEventType;

/** Options of one `invokeAll`. */
export interface InvokeOptions {
  /**
   * `pre_tool_call`: checks rewritten arguments against the tool's schema (hook-semantics
   * §5.10); absent = any JSON object is taken.
   */
  validateArgs?: ArgsValidator;
}

/** One callback or gateway handler run, reported for traces (`hookgate trace`). */
export interface HookRunRecord {
  /** Plugin-hook name or gateway event type. */
  readonly hook: string;
  readonly source: 'plugin' | 'shell' | 'gateway';
  /** Callback name, `shell_hook[<event>:<command>]`, or the gateway hook's name. */
  readonly callback: string;
  /** The plugin that registered the callback (plugin callbacks only). */
  readonly plugin?: string;
  /** What the callback reported of its run: a shell hook's exit code and output, or why it was skipped. */
  readonly detail?: RunDetail;
  readonly durationMs: number;
  /** The raw return value (`undefined` when it threw). */
  readonly result?: unknown;
  readonly error?: string;
}

export interface HookEngineOptions {
  /** The hooks home (§0.1); defaults to HOOKGATE_HOME, HERMES_HOME, ~/.hermes. */
  home?: string;
  /** The `--accept-hooks` flag (§3.8). */
  acceptHooks?: boolean;
  /**
   * The caller shows every shell hook that is not allowlisted itself (`hookgate dev`'s banner,
   * its guard-off lines): no warning per skipped hook at each load, which would repeat it.
   */
  skippedShellHooksShown?: boolean;
  /** Load `hooks/*` gateway event hooks (the gateway does; the CLI never does, §2.1). */
  gatewayHooks?: boolean;
  /** Where observer events go; default: run in-process at once. */
  observerSink?: ObserverSink;
  /** Consent records; default: the allowlist file in the hooks home. */
  allowlist?: AllowlistStore;
  /** Defaults to a stderr logger at HOOKGATE_LOG_LEVEL (info). */
  logger?: HookLogger;
  /** Called after every callback or handler run, for traces. Must not throw. */
  onRun?: (record: HookRunRecord) => void;
  /**
   * Whether `onRun` would keep a record now (unset: always). Asked once per hook call, so that
   * a call nobody traces (outside a turn) pays nothing for tracing: see `hookRunsWanted`.
   */
  onRunWanted?: () => boolean;
}

/**
 * The hook engine: Hermes-compatible plugin hooks, shell hooks and gateway event hooks
 * for one hooks home. It knows nothing of AWS.
 */
export interface HookEngine {
  /** The hooks home, where the engine has one. */
  readonly home?: string;
  /** Its parsed config.yaml (an empty mapping when there is none), where the engine has one. */
  readonly config?: Readonly<Record<string, unknown>>;
  /**
   * Runs one hook and answers its aggregated decision — exactly what
   * `POST /v1/hooks/{hook}` answers (architecture §4). Observer hooks go through the
   * observer sink and answer `{}`. Typed by the catalogue: a misspelled hook name or a
   * kwarg of the wrong type does not compile.
   *
   * @example
   * const answer = await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
   * if (answer.action === 'block') console.log(answer.message);
   */
  invoke<H extends HookName>(hook: H, kwargs: KwargsOf<H>): Promise<AnswerOf<H>>;
  /**
   * Runs every callback inline and returns the raw results, null/undefined dropped (§1.3).
   * On `pre_tool_call`, a `{"action": "rewrite", "args"}` result replaces the args the later
   * callbacks get (§5.10); the results keep the rewrites that were taken.
   */
  invokeAll<H extends CallableHookName>(hook: H, kwargs: KwargsOf<H>, options?: InvokeOptions): Promise<unknown[]>;
  /** Runs gateway event hooks for `event` inline (§2.3). */
  emit(event: string, context?: Kwargs | null): Promise<void>;
  /** Like `emit`, resolving to the handlers' non-null return values (§2.3). */
  emitCollect(event: string, context?: Kwargs | null): Promise<unknown[]>;
  /** True iff a callback (plugin or shell) is registered for `hook` (§1.3). */
  hasHook(hook: string): boolean;
  /**
   * Fires an observer plugin hook or gateway event through the observer sink. Plugin-hook
   * kwargs get the telemetry tag here, so the published payload carries it. With `inline`
   * the hooks run here first, awaited (where the spec wants them serialised on the caller,
   * e.g. `subagent_stop` §1.14), and the event is then published marked `ran_at_source`
   * so telemetry consumers see it and the observer consumer does not run it again. With
   * `ran_at_source` the caller ran its hooks already (`runObservers`): it is only published, marked
   * so (nothing without a sink).
   */
  observe<T extends ObservedType>(
    type: T,
    payload: PayloadOf<T>,
    meta?: { id?: string; session_id?: string; turn_id?: string; inline?: boolean; ran_at_source?: boolean },
  ): Promise<void>;
  /**
   * True when `observe` hands events to an observer sink (the pipeline) instead of running their
   * hooks here (but for `inline`): nothing of the caller's waits on them, so a caller may go on
   * while they are handed over, as long as it hands them over in order (TurnHooks does).
   */
  readonly publishesObservers?: boolean;
  /** Runs the hooks of one observer event here and now (the consumer side of `observe`). */
  runObservers(type: string, payload: Kwargs): Promise<void>;
  /**
   * The slash commands plugins registered (`ctx.register_command`). Absent on engines without
   * plugins (e.g. the turn runtime's no-hooks engine): the gateway then knows only its built-ins.
   */
  readonly pluginCommands?: PluginCommands;
  /**
   * True iff `runObservers(type, …)` would run anything now: a plugin or shell callback for
   * an observer hook, a gateway event hook (exact or `<prefix>:*`) for a gateway event.
   */
  hasObservers(type: string): boolean;
  close(): Promise<void>;
}

/** Read and run access to the plugin commands of one engine. */
export interface PluginCommands {
  /** The command registered under `name` (any case). */
  get(name: string): PluginCommandInfo | undefined;
  /** Every command, sorted by name. */
  list(): PluginCommandInfo[];
  /** Runs a command's handler; never throws, never waits past `plugins.callback_timeout`. */
  run(name: string, args: string, context: PluginCommandContext): Promise<PluginCommandOutcome>;
}

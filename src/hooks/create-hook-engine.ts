import { resolve } from 'node:path';
import { CallbackRegistry } from './callback-registry.ts';
import { hookAnswer, hookKind, type AnswerOf, type ObserverAnswer } from './catalogue.ts';
import { discoverHooksHome } from './discover-hooks-home.ts';
import { GatewayHookRegistry, type GatewayHookInfo } from './gateway-hooks/gateway-hook-registry.ts';
import { loadGatewayHooks } from './gateway-hooks/load-gateway-hooks.ts';
import type { HookEngine, HookEngineOptions, InvokeOptions, Kwargs } from './hook-engine.ts';
import { createStderrLogger, type HookLogger } from './hook-logger.ts';
import type { HooksHomeDescription } from './hooks-home-description.ts';
import { resolveHooksHome } from './hooks-home.ts';
import { moduleSource, type ModuleSource } from './module-source.ts';
import { readCallbackTimeoutSeconds } from './plugins/callback-timeout.ts';
import { loadPlugins, type PluginLoadResult } from './plugins/load-plugins.ts';
import { PluginCommandRegistry, type PluginCommandInfo } from './plugins/plugin-commands.ts';
import { callbackTimeoutSeconds } from './plugins/plugins-config.ts';
import { runCallbacks, runObserverCallbacks, type RunCallbacksContext } from './run-callbacks.ts';
import type { AllowlistStore } from './shell/consent/allowlist-store.ts';
import type { ConsentIO } from './shell/consent/consent.ts';
import type { PromptJudge } from './prompt/prompt-judge.ts';
import { withTelemetryTag } from './telemetry-tag.ts';
import { withObjectArgs } from './tool-call-args.ts';
import { errorText } from '../errors/error-text.ts';
import { isPlainObject } from './python-truthiness.ts';

export interface CreateHookEngineOptions extends HookEngineOptions {
  /**
   * Already-imported entry modules (the Lambda bundle's static list), keyed by entry path
   * relative to the home (`plugins/audit/index.ts`), directory key (`plugins/audit`,
   * `hooks/log`) or absolute path. Absent: entries are imported from disk.
   */
  modules?: Readonly<Record<string, unknown>>;
  /** A description made earlier (e.g. at build time); absent: the home is discovered now. */
  description?: HooksHomeDescription;
  /** Where `[hooks] ` lines go (default: stdout, as §0.5 says). */
  print?: (line: string) => void;
  /** Environment for consent (§3.8); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Where the consent prompt for an un-allowlisted shell hook talks (§3.8); default this
   * process's stdin/stdout. A non-TTY input means no prompt (`hookgate dev`'s hot reload).
   */
  consentIO?: ConsentIO;
  /** http hooks may call loopback addresses (`hookgate dev`, hook-semantics §5.10). */
  allowLoopbackHttpHooks?: boolean;
  /** The model `type: prompt` hooks ask; absent = the local stand-in judge (docs/reference/prompt-hooks.md). */
  promptJudge?: PromptJudge;
  /** The key http hook requests are signed with; absent = `HOOKGATE_HTTP_HOOK_SECRET` of `env` when a hook fires. */
  httpHookSecret?: string;
}

/** A plain listing of what an engine registered, to compare two engines (disk vs bundle). */
export interface RegistryListing {
  readonly plugins: readonly PluginLoadResult[];
  /** Per hook name (sorted), the callbacks in invocation order: `plugin:<plugin>:<fn>` / `shell:<name>`. */
  readonly callbacks: Readonly<Record<string, readonly string[]>>;
  readonly gatewayHooks: readonly GatewayHookInfo[];
  /** Per subscribed event key, the gateway hook names in registration order. */
  readonly gatewaySubscriptions: Readonly<Record<string, readonly string[]>>;
  /** Slash commands registered by plugins, sorted by name. */
  readonly commands: readonly PluginCommandInfo[];
}

/** The engine `createHookEngine` / `loadHookEngine` return: `HookEngine` plus registry access. */
export interface LoadedHookEngine extends HookEngine {
  /** The hooks home this engine loaded. */
  readonly home: string;
  /**
   * Plugin discovery (§1.2). Without `force` it is a no-op after the first run (idempotent).
   * With `force` it drops plugin callbacks, loads the plugins again, then re-registers the
   * configured shell hooks after them (§5.7).
   */
  discoverPlugins(options?: { force?: boolean }): Promise<void>;
  /** Loaded gateway-hook metadata, as a copy (§2.1). */
  loadedGatewayHooks(): GatewayHookInfo[];
  describeRegistry(): RegistryListing;
}

function sortedRecord<V>(entries: Iterable<[string, V]>): Record<string, V> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Builds the hook engine for one hooks home: plugin discovery, then shell-hook
 * registration, then (with `gatewayHooks`) gateway-hook discovery — the startup order of
 * hook-semantics §1.2. Entry modules come from `modules` when given (the bundle path) or
 * from disk; both give the same registry for the same home.
 *
 * @example
 * const engine = await createHookEngine({ home, gatewayHooks: true, observerSink: sink });
 * await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
 * // { action: 'allow' } or { action: 'block', message: '…' }
 */
export async function createHookEngine(options: CreateHookEngineOptions = {}): Promise<LoadedHookEngine> {
  const logger: HookLogger = options.logger ?? createStderrLogger();
  const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const env = options.env ?? process.env;
  const wantGatewayHooks = options.gatewayHooks ?? false;
  let description =
    options.description ?? (await discoverHooksHome(options.home ?? resolveHooksHome(env), { gatewayHooks: wantGatewayHooks }));
  const home = resolve(options.home ?? description.home);
  let load: ModuleSource = moduleSource(home, options.modules);
  const registry = new CallbackRegistry();
  // §5.8: every in-process callback (plugin hook, gateway handler) has a deadline.
  const callbackTimeoutMs = callbackTimeoutSeconds(description.config, logger) * 1000;
  const gateway = new GatewayHookRegistry({
    print,
    onRun: options.onRun,
    callbackTimeoutMs,
    warn: (message) => logger.warn(message),
  });
  let allowlist: AllowlistStore | undefined;
  const runContext: RunCallbacksContext = { logger, onRun: options.onRun, onRunWanted: options.onRunWanted, callbackTimeoutMs };
  const sink = options.observerSink;
  let pluginResults: PluginLoadResult[] = [];
  const commands = new PluginCommandRegistry(logger, readCallbackTimeoutSeconds(description.config, logger));

  for (const notice of description.notices) logger[notice.level](notice.message);

  const registerShell = async (): Promise<void> => {
    // Only a config that says something about shell hooks has anything to register or warn
    // about: the rest never loads the machinery (parser, consent, spawn pool) at cold start.
    if (!mentionsShellHooks(description.config)) return;
    // Outside the try: code that cannot load fails the engine, as a static import did, rather
    // than leaving a home's shell hooks (its pre_tool_call blocks, say) silently unregistered.
    const [{ registerShellHooks }, { bundledRunCommands }, { createFileAllowlistStore }, { withShippedApprovals }] =
      await Promise.all([
        import('./shell/register-shell-hooks.ts'),
        import('./shell/config/bundled-shell-command.ts'),
        import('./shell/consent/file-allowlist-store.ts'),
        import('./shell/consent/shipped-allowlist-store.ts'),
      ]);
    allowlist ??= withShippedApprovals(
      options.allowlist ?? createFileAllowlistStore(home, logger),
      description.approvedShellHooks ?? [],
    );
    try {
      await registerShellHooks({
        config: description.config,
        registry,
        allowlist,
        acceptHooks: options.acceptHooks ?? false,
        ...(options.skippedShellHooksShown ? { quietSkips: true } : {}),
        // A fresh set per engine and per forced re-discovery (§3.4).
        seen: new Set<string>(),
        ...(description.shellCommands ? { runCommands: bundledRunCommands(home, description.shellCommands) } : {}),
        ...(options.consentIO ? { io: options.consentIO } : {}),
        ...(options.allowLoopbackHttpHooks ? { allowLoopbackHttp: true } : {}),
        ...(options.promptJudge ? { promptJudge: options.promptJudge } : {}),
        ...(options.httpHookSecret ? { httpHookSecret: options.httpHookSecret } : {}),
        logger,
        env,
      });
    } catch (error) {
      logger.debug(`shell hook registration failed: ${errorText(error)}`);
    }
  };

  pluginResults = await loadPlugins(description.plugins, { home, registry, logger, load, commands });
  await registerShell();
  if (wantGatewayHooks) await loadGatewayHooks(description.gatewayHooks, { home, registry: gateway, load, print });

  const invokeAll = async (hook: string, kwargs: Kwargs, options: InvokeOptions = {}): Promise<unknown[]> => {
    const callbacks = registry.callbacks(hook);
    if (callbacks.length === 0) return [];
    // §1.5: the aggregator hands callbacks object args, whoever called (turn, /v1, library).
    if (hook !== 'pre_tool_call') return runCallbacks(hook, callbacks, withTelemetryTag(kwargs ?? {}), runContext);
    // §5.10: a rewrite changes the args the later callbacks see.
    const rewrites = options.validateArgs ? { validate: options.validateArgs } : {};
    return runCallbacks(hook, callbacks, withTelemetryTag(withObjectArgs(kwargs ?? {})), runContext, rewrites);
  };

  const runObservers = async (type: string, payload: Kwargs): Promise<void> => {
    if (type.includes(':')) {
      await gateway.emit(type, payload);
      return;
    }
    const callbacks = registry.callbacks(type);
    if (callbacks.length === 0) return;
    await runObserverCallbacks(type, callbacks, withTelemetryTag(payload ?? {}), runContext);
  };

  // Untyped inside: the engine runs whatever name it is given (forward compatibility); HookEngine types the callers.
  const observeAny = async (type: string, payload: Kwargs, meta: Parameters<HookEngine['observe']>[2] = {}): Promise<void> => {
    const body = type.includes(':') ? (payload ?? {}) : withTelemetryTag(payload ?? {});
    // `ran_at_source`: the caller ran the hooks already. Otherwise they run here without a sink, or inline.
    if (!meta.ran_at_source && (!sink || meta.inline)) await runObservers(type, body);
    const ranAtSource = meta.inline === true || meta.ran_at_source === true;
    if (!sink) return;
    await sink.publish([
      {
        type,
        payload: body,
        ...(meta.id !== undefined ? { id: meta.id } : {}),
        ...(meta.session_id !== undefined ? { session_id: meta.session_id } : {}),
        ...(meta.turn_id !== undefined ? { turn_id: meta.turn_id } : {}),
        ...(ranAtSource ? { ran_at_source: true } : {}),
      },
    ]);
  };

  return {
    home,
    get config() {
      return description.config;
    },
    invokeAll,
    async invoke(hook, kwargs) {
      // hookKind: a JavaScript caller's name outside the catalogue is observed, as a future observer hook would be.
      if (hookKind(hook) === 'observer') {
        await observeAny(hook, kwargs ?? {});
        const nothing: ObserverAnswer = {};
        return nothing as AnswerOf<typeof hook>;
      }
      return hookAnswer(hook, await invokeAll(hook, kwargs));
    },
    emit: (event, context) => gateway.emit(event, context),
    emitCollect: (event, context) => gateway.emitCollect(event, context),
    publishesObservers: sink !== undefined,
    hasHook: (hook) => registry.has(hook),
    observe: observeAny,
    runObservers,
    pluginCommands: {
      get: (name) => commands.get(name),
      list: () => commands.list(),
      run: (name, args, context) => commands.run(name, args, context),
    },
    hasObservers: (type) => (type.includes(':') ? gateway.handlersFor(type).length > 0 : registry.has(type)),
    async discoverPlugins({ force = false } = {}) {
      if (!force) return;
      if (!options.description) {
        description = await discoverHooksHome(home, { gatewayHooks: false }).then((fresh) => ({
          ...fresh,
          gatewayHooks: description.gatewayHooks,
        }));
        for (const notice of description.notices) logger[notice.level](notice.message);
      }
      runContext.callbackTimeoutMs = gateway.callbackTimeoutMs = callbackTimeoutSeconds(description.config, logger) * 1000;
      load = moduleSource(home, options.modules);
      registry.clear('plugin');
      registry.clear('shell');
      commands.clear();
      pluginResults = await loadPlugins(description.plugins, { home, registry, logger, load, commands });
      await registerShell();
    },
    loadedGatewayHooks: () => gateway.loadedHooks(),
    describeRegistry() {
      return {
        plugins: pluginResults.map((result) => ({ ...result })),
        callbacks: sortedRecord(
          registry
            .hooks()
            .map((hook): [string, string[]] => [
              hook,
              registry
                .callbacks(hook)
                .map((cb) => (cb.source === 'plugin' ? `plugin:${cb.plugin}:${cb.name}` : `shell:${cb.name}`)),
            ]),
        ),
        gatewayHooks: gateway.loadedHooks(),
        gatewaySubscriptions: gateway.subscriptions(),
        commands: commands.list(),
      };
    },
    async close() {
      // Nothing is held open per engine: the shell runner pool is process-wide and unrefs
      // its drivers; closing only stops this engine from being used by mistake later.
    },
  };
}

/**
 * Whether `config` has a `hooks:` section or a `hooks_*` setting (`hooks_auto_accept`,
 * `hooks_on_drift`): everything shell-hook registration reads lives there (hook-semantics §3).
 */
function mentionsShellHooks(config: unknown): boolean {
  return isPlainObject(config) && Object.keys(config).some((key) => key === 'hooks' || key.startsWith('hooks_'));
}

/**
 * The library entry point (architecture §4): an engine for `home` with gateway hooks
 * loaded, so `emit` / `emitCollect` work. Discovery messages go to stdout, warnings to
 * stderr.
 *
 * @example
 * import { loadHookEngine } from 'hookgate';
 * const hooks = await loadHookEngine({ home: '/home/me/.hermes' });
 * const decision = await hooks.invoke('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } });
 * await hooks.close();
 */
export async function loadHookEngine(
  options: { home: string; acceptHooks?: boolean } & CreateHookEngineOptions,
): Promise<LoadedHookEngine> {
  return createHookEngine({ gatewayHooks: true, ...options });
}

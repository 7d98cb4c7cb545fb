import type { CallbackRegistry } from '../callback-registry.ts';
import { hookKind } from '../catalogue.ts';
import type { HookLogger } from '../hook-logger.ts';
import { isPlainObject } from '../python-truthiness.ts';
import type { AllowlistStore } from './consent/allowlist-store.ts';
import { effectiveAccept, obtainConsent, type ConsentIO } from './consent/consent.ts';
import { driftPolicy, guardDrift, warnAtRegistration } from './consent/drift-guard.ts';
import { hookEnvironment, hookEnvPassthrough } from './spawn/hook-environment.ts';
import { parseShellHooks, registrationKey } from './config/parse-config.ts';
import { warmShellRunner } from './spawn/run-shell-command.ts';
import { shellCallbackName, shellHookCallback } from './shell-hook-callback.ts';
import type { ShellHookEntry } from './config/shell-hook-entry.ts';

export type { ShellHookEntry } from './config/shell-hook-entry.ts';

export interface RegisterShellHooksOptions {
  /** The whole parsed `config.yaml` mapping. */
  config: Record<string, unknown>;
  registry: CallbackRegistry;
  allowlist: AllowlistStore;
  /** The `--accept-hooks` flag. */
  acceptHooks: boolean;
  /** The engine's idempotence set (§3.4); a fresh engine passes a fresh set. */
  seen: Set<string>;
  logger: HookLogger;
  env?: NodeJS.ProcessEnv;
  /** Configured command → command to spawn, for a deployed home (bundled-shell-command.ts). */
  runCommands?: ReadonlyMap<string, string>;
  /** Where the consent prompt talks (default: this process's stdin/stdout). */
  io?: ConsentIO;
}

/**
 * Registers the configured shell hooks into `registry` (hook-semantics §3.4), after plugins:
 * parse, skip disabled and already-registered entries, obtain consent for un-allowlisted
 * (event, command) pairs, register `shell_hook[<event>:<command>]` callbacks (observer events
 * `parallelSafe`). Returns the entries registered by this call. Never throws.
 *
 * @example
 * const seen = new Set<string>();
 * await registerShellHooks({ config, registry, allowlist, acceptHooks: false, seen, logger });
 */
export async function registerShellHooks(options: RegisterShellHooksOptions): Promise<ShellHookEntry[]> {
  const { config, registry, allowlist, seen, logger } = options;
  if (!isPlainObject(config)) return [];
  const env = options.env ?? process.env;
  const accept = effectiveAccept(options.acceptHooks, env, config);
  const envPassthrough = hookEnvPassthrough(config, logger);
  const onDrift = driftPolicy(config, logger);
  const registered: ShellHookEntry[] = [];
  for (const parsed of parseShellHooks(config, logger)) {
    if (!parsed.enabled) continue;
    const runCommand = options.runCommands?.get(parsed.command);
    const entry: ShellHookEntry = runCommand === undefined ? parsed : { ...parsed, runCommand };
    const key = registrationKey(entry);
    if (seen.has(key)) continue;
    try {
      let approved = await allowlist.find(entry.event, entry.command);
      if (!approved) {
        const granted = await obtainConsent({
          event: entry.event,
          command: entry.command,
          accept,
          allowlist,
          logger,
          env,
          ...(options.io ? { io: options.io } : {}),
        });
        if (!granted) {
          logger.warn(
            `shell hook not allowlisted, skipping it: event=${entry.event} command=${entry.command}. ` +
              'To allow it: pass --accept-hooks, set HOOKGATE_ACCEPT_HOOKS=1 (or HERMES_ACCEPT_HOOKS=1), ' +
              'set hooks_auto_accept: true in config.yaml, approve it at the TTY prompt on the next run, ' +
              'or run `hookgate hooks approve <event> <command>`.',
          );
          continue;
        }
        approved = await allowlist.find(entry.event, entry.command);
      }
      // §5.5: consent is pinned to the content approved; a changed script is skipped (or, with
      // hooks_on_drift: warn, run with a warning) on every call.
      const callback = shellHookCallback(entry, logger, envPassthrough);
      if (approved) warnAtRegistration(entry, approved, onDrift, logger, env);
      registry.register({
        hook: entry.event,
        name: shellCallbackName(entry),
        source: 'shell',
        parallelSafe: hookKind(entry.event) === 'observer',
        fn: approved ? guardDrift(entry, approved, { allowlist, policy: onDrift, logger, env }, callback) : callback,
      });
      seen.add(key);
      registered.push(entry);
      logger.info(
        `registered shell hook: event=${entry.event} command=${entry.command} ` +
          `matcher=${entry.matcher === null ? 'none' : `'${entry.matcher}'`} timeout=${entry.timeout}s`,
      );
    } catch (error) {
      logger.debug(`shell hook registration failed for ${entry.event}:${entry.command}: ${(error as Error).message}`);
    }
  }
  if (registered.length > 0) warmShellRunner(hookEnvironment(envPassthrough));
  return registered;
}

import type { CallbackRegistry, HookCallback, RegisteredCallback } from '../callback-registry.ts';
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
import { HTTP_HOOK_SECRET_VARIABLE } from '../http/hook-signature.ts';
import type { PromptJudge } from '../prompt/prompt-judge.ts';
import { answersPermission, PERMISSION_REQUEST_HOOK } from './claude-event-gate.ts';
import { permissionCallback } from './permission-request.ts';
import { errorText } from '../../errors/error-text.ts';
import { needsConsent } from './consent/needs-consent.ts';

export type { ShellHookEntry } from './config/shell-hook-entry.ts';

export interface RegisterShellHooksOptions {
  /** The whole parsed `config.yaml` mapping. */
  config: Record<string, unknown>;
  registry: CallbackRegistry;
  allowlist: AllowlistStore;
  /** The `--accept-hooks` flag. */
  acceptHooks: boolean;
  /** No warning per un-allowlisted hook: the caller shows them (HookEngineOptions.skippedShellHooksShown). */
  quietSkips?: boolean;
  /** The engine's idempotence set (§3.4); a fresh engine passes a fresh set. */
  seen: Set<string>;
  logger: HookLogger;
  env?: NodeJS.ProcessEnv;
  /** Configured command → command to spawn, for a deployed home (bundled-shell-command.ts). */
  runCommands?: ReadonlyMap<string, string>;
  /** Where the consent prompt talks (default: this process's stdin/stdout). */
  io?: ConsentIO;
  /** http hooks may call loopback addresses (`hookgate dev`; hook-semantics §5.10). */
  allowLoopbackHttp?: boolean;
  /** The model of `type: prompt` hooks; absent = the local stand-in judge. */
  promptJudge?: PromptJudge;
  /** The signing key of http hook requests; absent = `HOOKGATE_HTTP_HOOK_SECRET` of `env`, read when a hook fires. */
  httpHookSecret?: string;
}

/**
 * Registers the configured shell hooks into `registry` (hook-semantics §3.4), after plugins:
 * parse, skip disabled and already-registered entries, obtain consent for un-allowlisted
 * (event, command) pairs, register `shell_hook[<event>:<command>]` callbacks. Returns the
 * entries registered by this call. Never throws.
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
  const policy = { allowPrivate: httpAllowPrivate(config, logger), allowLoopback: options.allowLoopbackHttp ?? false };
  const secretNow = () => options.httpHookSecret ?? env[HTTP_HOOK_SECRET_VARIABLE];
  const runners = {
    http: () => {
      const secret = secretNow();
      return { policy, ...(secret ? { secret } : {}) };
    },
    ...(options.promptJudge ? { judge: options.promptJudge } : {}),
  };
  const registered: ShellHookEntry[] = [];
  for (const parsed of parseShellHooks(config, logger)) {
    if (!parsed.enabled) continue;
    const runCommand = options.runCommands?.get(parsed.command);
    const entry: ShellHookEntry = runCommand === undefined ? parsed : { ...parsed, runCommand };
    const key = registrationKey(entry);
    if (seen.has(key)) continue;
    try {
      if (!needsConsent(entry)) {
        registerEntry(
          registry,
          entry,
          answersPermission(entry)
            ? permissionCallback(entry, logger, envPassthrough, runners)
            : shellHookCallback(entry, logger, envPassthrough, runners),
          logger,
        );
        seen.add(key);
        registered.push(entry);
        continue;
      }
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
          ...(entry.type === 'http' ? { kind: 'http' as const } : {}),
        });
        if (!granted) {
          if (options.quietSkips) continue;
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
      // hooks_on_drift: warn, run with a warning) on every call. An http hook's URL is its
      // identity: a changed URL is another hook, so there is nothing else to drift.
      const callback = answersPermission(entry)
        ? permissionCallback(entry, logger, envPassthrough, runners)
        : shellHookCallback(entry, logger, envPassthrough, runners);
      const pinned = approved && entry.type !== 'http';
      if (pinned) warnAtRegistration(entry, approved!, onDrift, logger, env);
      if (entry.type === 'http') warnOfWeakSigning(entry, secretNow(), logger);
      registerEntry(
        registry,
        entry,
        pinned ? guardDrift(entry, approved!, { allowlist, policy: onDrift, logger, env }, callback) : callback,
        logger,
      );
      seen.add(key);
      registered.push(entry);
    } catch (error) {
      logger.debug(`shell hook registration failed for ${entry.event}:${entry.command}: ${errorText(error)}`);
    }
  }
  if (registered.some((entry) => (entry.type ?? 'command') === 'command')) warmShellRunner(hookEnvironment(envPassthrough));
  return registered;
}

/**
 * Appends one entry's callback: under its event, or, for a PermissionRequest entry, under
 * {@link PERMISSION_REQUEST_HOOK} with a callback that answers the approval.
 */
function registerEntry(
  registry: CallbackRegistry,
  entry: ShellHookEntry,
  callback: (kwargs: Record<string, unknown>) => Promise<unknown>,
  logger: HookLogger,
): void {
  registry.register(shellRegisteredCallback(entry, callback));
  logger.info(
    `registered ${entry.type ?? 'shell'} hook: event=${entry.event} ${entry.type === 'http' ? 'url' : 'command'}=${entry.command} ` +
      `matcher=${entry.matcher === null ? 'none' : `'${entry.matcher}'`} timeout=${entry.timeout}s`,
  );
}

/** `hooks.http_allow_private` (hook-semantics §5.10): only the boolean `true` allows private addresses. */
export function httpAllowPrivate(config: Record<string, unknown>, logger: HookLogger): boolean {
  const hooks = config.hooks;
  if (!isPlainObject(hooks) || hooks.http_allow_private === undefined || hooks.http_allow_private === null) return false;
  if (typeof hooks.http_allow_private === 'boolean') return hooks.http_allow_private;
  logger.warn(
    `hooks.http_allow_private must be a boolean (got ${JSON.stringify(hooks.http_allow_private)}); private addresses stay refused`,
  );
  return false;
}

/** The key length below which a signing key is called short: 16 characters, as for `HOOKGATE_API_TOKEN`. */
const SHORT_SECRET_CHARS = 16;

/** An http hook called unsigned, or signed with a short key, is named at registration: its receiver cannot trust it much. */
function warnOfWeakSigning(entry: ShellHookEntry, secret: string | undefined, logger: HookLogger): void {
  if (!secret) {
    logger.warn(
      `http hook ${entry.command} (${entry.event}) is called unsigned: set ${HTTP_HOOK_SECRET_VARIABLE} so that it can verify its requests`,
    );
  } else if (secret.length < SHORT_SECRET_CHARS) {
    logger.warn(
      `http hook ${entry.command} (${entry.event}) is signed with a ${HTTP_HOOK_SECRET_VARIABLE} of ${secret.length} characters: ` +
        `a key that short can be guessed; use at least 32 random characters`,
    );
  }
}

/**
 * The registry's record of a shell-hook entry's callback: where it is registered, its §1.3 name,
 * and the name a `fail_closed` entry's late failure blocks with (§5.10).
 *
 * @example
 * registry.register(shellRegisteredCallback(entry, shellHookCallback(entry, logger, [], runners)));
 */
export function shellRegisteredCallback(entry: ShellHookEntry, fn: HookCallback): RegisteredCallback {
  return {
    hook: answersPermission(entry) ? PERMISSION_REQUEST_HOOK : entry.event,
    name: shellCallbackName(entry),
    source: 'shell',
    ...(entry.failClosed && entry.event === 'pre_tool_call' ? { failClosedAs: entry.command } : {}),
    fn,
  };
}

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readHooksConfig } from '../../hooks/config-file.ts';
import { createStderrLogger, type HookLogger } from '../../hooks/hook-logger.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import type { AllowlistStore } from '../../hooks/shell/consent/allowlist-store.ts';
import { driftPolicy, type DriftPolicy } from '../../hooks/shell/consent/drift-guard.ts';
import { hookEnvironment, hookEnvPassthrough, type HookEnvironment } from '../../hooks/shell/spawn/hook-environment.ts';
import { parseShellHooks } from '../../hooks/shell/config/parse-config.ts';
import type { ShellHookEntry } from '../../hooks/shell/config/shell-hook-entry.ts';
import { resolveAllowlistStore } from '../allowlist-target.ts';
import { modelPromptJudge } from '../../agent/model/model-prompt-judge.ts';
import { loadModelConfig } from '../../config/deployment-config.ts';
import { HTTP_HOOK_SECRET_VARIABLE } from '../../hooks/http/hook-signature.ts';
import type { PromptJudge } from '../../hooks/prompt/prompt-judge.ts';
import type { HttpHookContext } from '../../hooks/shell/fire-http-hook.ts';
import { httpAllowPrivate } from '../../hooks/shell/register-shell-hooks.ts';

/** What every `hookgate hooks` sub-command starts from: the home, its entries, its allowlist. */
export interface HooksContext {
  home: string;
  configPath: string;
  entries: ShellHookEntry[];
  allowlist: AllowlistStore;
  logger: HookLogger;
  /** What the hooks run with: the inherited environment minus the secrets, `hooks.env_passthrough` given back. */
  environment: HookEnvironment;
  /** `hooks_on_drift` (§5.5): whether a script changed since approval may run. */
  onDrift: DriftPolicy;
  /**
   * How `test` and `doctor` call http hooks (§5.10): `hooks.http_allow_private` from the config,
   * loopback allowed (these commands run beside `hookgate dev`), the signing key from the environment.
   */
  http: HttpHookContext;
  /** The model prompt hooks ask: the configured endpoint (HOOKGATE_MODEL_BASE_URL), else the stand-in judge. */
  judge?: PromptJudge;
}

/** Reads `<home>/config.yaml` with the §3.2 rules (warnings go to stderr, as at startup). */
export async function loadHooksContext(command: Command): Promise<HooksContext> {
  const opts = command.optsWithGlobals() as { home?: string; table?: string; stack?: string };
  const home = resolve(opts.home ?? resolveHooksHome());
  // The hooks find their home as hookgate does (HOOKGATE_HOME first), as under `hookgate dev`:
  // what `test` and `doctor` run writes its logs there, not into the default home.
  process.env.HOOKGATE_HOME = home;
  // A command's report to the person running it, piped or not: readable lines, so the §3.2
  // warnings keep their quoted fragments (a raw matcher with `\` or `"`) verbatim; JSON is for
  // the long-running processes' logs.
  const logger = createStderrLogger(undefined, undefined, 'text');
  const file = await readHooksConfig(home);
  const judge = modelPromptJudge(loadModelConfig(process.env));
  if (file.warning) logger.warn(file.warning);
  return {
    home,
    configPath: file.path,
    entries: parseShellHooks(file.config, logger),
    allowlist: await resolveAllowlistStore({
      home,
      logger,
      ...(opts.table ? { table: opts.table } : {}),
      ...(opts.stack ? { stack: opts.stack } : {}),
    }),
    logger,
    environment: hookEnvironment(hookEnvPassthrough(file.config, logger)),
    onDrift: driftPolicy(file.config, logger),
    http: {
      policy: { allowPrivate: httpAllowPrivate(file.config, logger), allowLoopback: true },
      ...(process.env[HTTP_HOOK_SECRET_VARIABLE] ? { secret: process.env[HTTP_HOOK_SECRET_VARIABLE] } : {}),
    },
    ...(judge ? { judge } : {}),
  };
}

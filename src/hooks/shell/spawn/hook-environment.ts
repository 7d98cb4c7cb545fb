import * as z from 'zod';
import { secretVariableNames } from '../../../secrets/secret-variables.ts';
import type { HookLogger } from '../../hook-logger.ts';
import { isPlainObject } from '../../python-truthiness.ts';

/** An environment variable name, as `env_passthrough` lists take them. */
export const EnvVariableNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** `hooks.env_passthrough` / `terminal.env_passthrough` in config.yaml: a list of variable names. */
export const EnvPassthroughSchema = z.array(EnvVariableNameSchema);

/**
 * The environment shell hooks run with (hook-semantics §3.5 step 3, §5.8): the process's
 * own, inherited as it is when the hook fires, minus every variable hookgate knows to be
 * secret (`secretVariableNames()`: AWS credentials, platform secrets, the model key,
 * `HOOKGATE_API_TOKEN`, every key of the deployment secret) that `hooks.env_passthrough`
 * does not name. Computed here only; the spawners take it as it is.
 */
export interface HookEnvironment {
  /** The names removed from the inherited environment, sorted. */
  readonly withheld: readonly string[];
  /** The environment as a fresh object (for `child_process.spawn`). */
  variables(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/**
 * @example
 * const environment = hookEnvironment(['AWS_ACCESS_KEY_ID']); // the operator gave this one back
 * environment.withheld.includes('HOOKGATE_API_TOKEN') // true
 * spawn(file, args, { env: environment.variables() });
 */
export function hookEnvironment(passthrough: readonly string[] = []): HookEnvironment {
  const given = new Set(passthrough);
  const withheld = secretVariableNames().filter((name) => !given.has(name));
  return {
    withheld,
    variables(env = process.env) {
      const copy: NodeJS.ProcessEnv = { ...env };
      for (const name of withheld) delete copy[name];
      return copy;
    },
  };
}

/**
 * `hooks.env_passthrough` of a config mapping (zod-validated). A value that is not a list of
 * variable names is a warning and counts as empty: nothing secret is passed by mistake.
 *
 * @example
 * hookEnvPassthrough({ hooks: { env_passthrough: ['GITHUB_TOKEN'] } }, logger) // ['GITHUB_TOKEN']
 */
export function hookEnvPassthrough(config: unknown, logger: HookLogger): string[] {
  const hooks = isPlainObject(config) ? config.hooks : undefined;
  return envPassthroughAt(isPlainObject(hooks) ? hooks.env_passthrough : undefined, 'hooks.env_passthrough', logger);
}

/** Validates one `env_passthrough` value found at `where`; `undefined`/`null` is an empty list. */
export function envPassthroughAt(value: unknown, where: string, logger: HookLogger): string[] {
  if (value === undefined || value === null) return [];
  const parsed = EnvPassthroughSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  logger.warn(
    `${where}${issue?.path.length ? `[${issue.path.join('.')}]` : ''}: ${issue?.message ?? 'invalid'}; ignoring ${where} (no variable is passed through)`,
  );
  return [];
}

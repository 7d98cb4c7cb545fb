import * as z from '../../../validation/zod.ts';
import { secretVariableNames } from '../../../secrets/secret-variables.ts';
import type { HookLogger } from '../../hook-logger.ts';
import { isPlainObject } from '../../python-truthiness.ts';

/** An environment variable name, as `env_passthrough` lists take them. */
export const EnvVariableNameSchema = z
  .string()
  .check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'));

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
  // Asked for on every firing: the same answer while the secret names (a new array once the
  // deployment secret is read) and the passthrough list are the same.
  const names = secretVariableNames();
  if (names !== cachedFor) {
    cache.clear();
    cachedFor = names;
  }
  const key = passthrough.join('\0');
  let environment = cache.get(key);
  if (!environment) {
    environment = buildHookEnvironment(names, passthrough);
    if (cache.size >= 16) cache.clear();
    cache.set(key, environment);
  }
  return environment;
}

let cachedFor: readonly string[] | undefined;
const cache = new Map<string, HookEnvironment>();

function buildHookEnvironment(names: readonly string[], passthrough: readonly string[]): HookEnvironment {
  const given = new Set(passthrough);
  const withheld = Object.freeze(names.filter((name) => !given.has(name)));
  const skip = new Set(withheld);
  return {
    withheld,
    variables(env = process.env) {
      // Copied key by key, the secrets skipped: spreading `process.env` and deleting from the
      // copy reads every value through a slower path and leaves a dictionary-mode object that
      // is slower again to walk (~90 µs against ~55 µs a firing, with the pool's env key).
      const copy: NodeJS.ProcessEnv = {};
      for (const name of Object.keys(env)) {
        if (skip.has(name)) continue;
        // A variable named `__proto__` is a variable like any other (an assignment would set the prototype).
        if (name === '__proto__')
          Object.defineProperty(copy, name, { value: env[name], enumerable: true, writable: true, configurable: true });
        else copy[name] = env[name];
      }
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

import { stat } from 'node:fs/promises';
import type { HooksHomeDescription } from './hooks-home-description.ts';
import { createHookEngine, type CreateHookEngineOptions, type LoadedHookEngine } from './create-hook-engine.ts';
import { resolveHooksHome } from './hooks-home.ts';
import type { InvalidHooksConfigError } from './validate-hooks-home.ts';

/**
 * The hooks home compiled into a Lambda bundle: its description, made at build time, and
 * its entry modules, imported statically. The generated module that the bundle imports
 * first (infra/lib/hooks-bundle.ts) registers them here; the functions then build their
 * engine from them instead of reading and importing from disk.
 */
export interface BundledHooks {
  /** The bundled home's directory in the asset (beside the bundle: `/var/task/hooks-home` in Lambda). */
  readonly home: string;
  readonly description: HooksHomeDescription;
  /** Keyed by entry path relative to the home (`plugins/audit/index.ts`). */
  readonly modules: Readonly<Record<string, unknown>>;
}

let bundled: BundledHooks | undefined;

export function registerBundledHooks(hooks: BundledHooks): void {
  bundled = hooks;
}

/** The bundled hooks home's directory, or undefined when this code is not running from a bundle. */
export function bundledHooksHome(): string | undefined {
  return bundled?.home;
}

/**
 * The `createHookEngine` options of the bundled hooks home, or `{}` when this code is not
 * running from a bundle (then the engine discovers and imports from disk).
 *
 * @example
 * const engine = await createHookEngine({ home, gatewayHooks: true, ...bundledHooksOptions() });
 */
export function bundledHooksOptions(): { description?: HooksHomeDescription; modules?: Readonly<Record<string, unknown>> } {
  return bundled ? { description: bundled.description, modules: bundled.modules } : {};
}

/**
 * `createHookEngine` for a function entry: uses the bundled home when this runs from a
 * bundle, else discovers from disk. A home read from disk is validated first: an invalid one
 * throws {@link InvalidHooksConfigError} naming file and line. A bundled home was validated
 * when it was built (infra/lib/hooks-bundle.ts fails the synth) and ships in an immutable
 * asset, so its cold start neither validates again nor loads the YAML parser.
 * The functions pass it as their `createEngine`.
 *
 * @example
 * const runtime = createRuntime(loadDeploymentConfig(process.env), { createEngine: createEngineFromBundle });
 */
export async function createEngineFromBundle(options: CreateHookEngineOptions = {}): Promise<LoadedHookEngine> {
  const home = options.home ?? bundled?.home ?? resolveHooksHome(options.env ?? process.env);
  // A config.yaml, plugin.yaml or HOOK.yaml the engine would partly ignore is an error (file,
  // line, reason), not a deployment whose guards silently went missing. A home that does not
  // exist (a stack deployed without one) has no file to check: the check and its YAML parser
  // are not loaded for it.
  if (!bundled && (await isDirectory(home))) {
    const { assertValidHooksConfig } = await import('./validate-hooks-home.ts');
    await assertValidHooksConfig(home);
  }
  return createHookEngine({ ...options, home, ...bundledHooksOptions() });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

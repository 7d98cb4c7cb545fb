import type { CallbackRegistry } from '../callback-registry.ts';
import { errorText } from '../../errors/error-text.ts';
import { type HookCodeOwner, runAsHookCode } from '../hook-code.ts';
import type { HookLogger } from '../hook-logger.ts';
import type { PluginDescription } from '../hooks-home-description.ts';
import type { ModuleSource } from '../module-source.ts';
import { isPlainObject } from '../python-truthiness.ts';
import { createPluginContext } from './plugin-context.ts';
import type { PluginCommandRegistry } from './plugin-commands.ts';
import { HookgateError } from '../../errors/hookgate-error.ts';

export type PluginStatus = 'loaded' | 'failed' | 'not-enabled' | 'disabled';

export interface PluginLoadResult {
  readonly name: string;
  readonly dir: string;
  readonly status: PluginStatus;
  readonly error?: string;
}

function registerFunction(mod: Record<string, unknown>): ((ctx: unknown) => unknown) | undefined {
  if (typeof mod.register === 'function') return mod.register as (ctx: unknown) => unknown;
  const fallback = mod.default;
  if (isPlainObject(fallback) && typeof fallback.register === 'function') return fallback.register as (ctx: unknown) => unknown;
  return undefined;
}

/**
 * Loads the enabled plugins in description (directory) order: import the entry, await
 * `register(ctx)`, and only then go on to the next one (§1.2). A plugin that fails to
 * import or whose `register` throws is marked failed; the others still load.
 *
 * @example
 * const results = await loadPlugins(description.plugins, { home, registry, logger, load: moduleSource(home) });
 */
export async function loadPlugins(
  plugins: readonly PluginDescription[],
  options: { home: string; registry: CallbackRegistry; logger: HookLogger; load: ModuleSource; commands?: PluginCommandRegistry },
): Promise<PluginLoadResult[]> {
  const { registry, logger, load, commands } = options;
  const results: PluginLoadResult[] = [];
  for (const plugin of plugins) {
    const { name, dir } = plugin;
    if (!plugin.enabled) {
      const status: PluginStatus = plugin.disabled ? 'disabled' : 'not-enabled';
      logger.debug(
        `plugin ${name} (${plugin.entry}) is ${status === 'disabled' ? 'disabled' : 'not in plugins.enabled'}; not loaded`,
      );
      results.push({ name, dir, status });
      continue;
    }
    try {
      // The module's top level and register(ctx) run as the plugin's code, as its callbacks do (hook-code.ts).
      const owner: HookCodeOwner = { kind: 'plugin', name };
      const mod = await runAsHookCode(owner, load, plugin.entry);
      const register = registerFunction(mod);
      if (!register) throw new PluginLoadError(`${plugin.entry} does not export a register(ctx) function`);
      const ctx = createPluginContext({
        name,
        manifest: plugin.manifest,
        home: options.home,
        registry,
        logger,
        ...(commands ? { commands } : {}),
      });
      await runAsHookCode(owner, register, ctx);
      results.push({ name, dir, status: 'loaded' });
      logger.debug(`loaded plugin ${name} from ${plugin.entry}`);
    } catch (error) {
      const text = errorText(error);
      logger.warn(`plugin ${name} failed to load (${plugin.entry}): ${text}`);
      results.push({ name, dir, status: 'failed', error: text });
    }
  }
  return results;
}

/** A plugin's entry module loaded but has no `register(ctx)`: the plugin is reported as failed to load. */
export class PluginLoadError extends HookgateError {
  override readonly name = 'PluginLoadError';
}

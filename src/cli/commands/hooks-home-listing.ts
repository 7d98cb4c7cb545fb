import { CallbackRegistry } from '../../hooks/callback-registry.ts';
import { discoverHooksHome } from '../../hooks/discover-hooks-home.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { moduleSource } from '../../hooks/module-source.ts';
import { loadPlugins, type PluginStatus } from '../../hooks/plugins/load-plugins.ts';
import { PluginCommandRegistry, type PluginCommandInfo } from '../../hooks/plugins/plugin-commands.ts';

/** One plugin of a home as `hookgate hooks list` shows it. */
export interface PluginListing {
  name: string;
  dir: string;
  /** What start-up does with it: `loaded`, `failed` (its import or `register` threw), `not-enabled`, `disabled`. */
  status: PluginStatus;
  /** Why it failed to load. */
  error?: string;
  /** The hooks its `register` registered, each with its callbacks' names (enabled plugins only). */
  hooks: { hook: string; callbacks: string[] }[];
  /** Its slash commands (enabled plugins only). */
  commands: PluginCommandInfo[];
}

/** One gateway hook directory: loaded with its events, or skipped with the `[hooks] ` line saying why. */
export type GatewayHookListing = { name: string; dir: string; events: readonly string[] } | { dir: string; skipped: string };

/**
 * The plugins and gateway hooks of a home. Enabled plugins are loaded into throwaway
 * registries (their `register` runs, as at CLI startup, hook-semantics §1.2) to learn their
 * hooks and slash commands; no callback or handler runs and nothing is kept. Gateway hooks
 * are described from their HOOK.yaml, not imported (§2.1).
 *
 * @example
 * const { plugins, gatewayHooks } = await listHooksHome(home, logger);
 */
export async function listHooksHome(
  home: string,
  logger: HookLogger,
): Promise<{ plugins: PluginListing[]; gatewayHooks: GatewayHookListing[] }> {
  const description = await discoverHooksHome(home, { gatewayHooks: true });
  const registry = new CallbackRegistry();
  const commands = new PluginCommandRegistry(logger, 1);
  const results = await loadPlugins(description.plugins, { home, registry, logger, load: moduleSource(home), commands });
  const registered = registry.hooks().flatMap((hook) => registry.callbacks(hook).filter((c) => c.source === 'plugin'));
  const plugins = results.map(({ name, dir, status, error }): PluginListing => {
    const mine = status === 'loaded' ? registered.filter((c) => c.plugin === name) : [];
    const hooks = [...new Set(mine.map((c) => c.hook))].map((hook) => ({
      hook,
      callbacks: mine.filter((c) => c.hook === hook).map((c) => c.name),
    }));
    const own = status === 'loaded' ? commands.list().filter((c) => c.plugin === name) : [];
    return { name, dir, status, ...(error ? { error } : {}), hooks, commands: own };
  });
  const gatewayHooks = description.gatewayHooks.map(
    (g): GatewayHookListing =>
      g.kind === 'hook' ? { name: g.name, dir: g.dir, events: g.events } : { dir: g.dir, skipped: g.line },
  );
  return { plugins, gatewayHooks };
}

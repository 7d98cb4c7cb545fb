import { CallbackRegistry } from '../../hooks/callback-registry.ts';
import { discoverHooksHome } from '../../hooks/discover-hooks-home.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { moduleSource } from '../../hooks/module-source.ts';
import { loadPlugins } from '../../hooks/plugins/load-plugins.ts';
import { PluginCommandRegistry, type PluginCommandInfo } from '../../hooks/plugins/plugin-commands.ts';

/**
 * The slash commands the enabled plugins of a home register: the plugins are loaded into
 * throwaway registries (their `register` runs, as at CLI startup, hook-semantics §1.2); no
 * handler runs and nothing is kept.
 *
 * @example
 * for (const c of await pluginCommandsOf(home, logger)) console.log(`/${c.name}`, c.description);
 */
export async function pluginCommandsOf(home: string, logger: HookLogger): Promise<PluginCommandInfo[]> {
  const description = await discoverHooksHome(home, { gatewayHooks: false });
  if (!description.plugins.some((p) => p.enabled)) return [];
  const commands = new PluginCommandRegistry(logger, 1);
  await loadPlugins(description.plugins, { home, registry: new CallbackRegistry(), logger, load: moduleSource(home), commands });
  return commands.list();
}

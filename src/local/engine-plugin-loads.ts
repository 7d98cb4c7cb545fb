import type { PluginLoad } from '../console/console-data.ts';
import type { LoadedHookEngine } from '../hooks/create-hook-engine.ts';
import type { EngineHolder } from './engine-holder.ts';

/**
 * How the plugins of the engine `hookgate dev` runs now loaded (it changes with each hot
 * reload): what the console, the banner and the reload lines read to show a plugin whose load
 * failed as not running. Undefined for an engine that cannot say.
 *
 * @example
 * mountDevConsole(app, { …, pluginLoads: enginePluginLoads(holder) });
 */
export function enginePluginLoads(holder: Pick<EngineHolder, 'current'>): () => readonly PluginLoad[] | undefined {
  return () => {
    const engine = holder.current as Partial<LoadedHookEngine>;
    return typeof engine.describeRegistry === 'function' ? engine.describeRegistry().plugins : undefined;
  };
}

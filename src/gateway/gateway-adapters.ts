import type { DeploymentConfig } from '../config/deployment-config.ts';
import type { PlatformAdapter } from '../platforms/platform-adapter.ts';
import { ANY_PLATFORMS, type PlatformName } from '../platforms/registry.ts';

/**
 * One adapter per enabled platform, each built by its registry entry (platforms/registry.ts).
 *
 * @example
 * const adapters = createAdapters(config); adapters.get('telegram')?.handle(request);
 */
export function createAdapters(config: DeploymentConfig): Map<PlatformName, PlatformAdapter> {
  const adapters = new Map<PlatformName, PlatformAdapter>();
  const configs: Partial<Record<string, unknown>> = config.platforms;
  for (const platform of ANY_PLATFORMS) {
    const settings = configs[platform.name];
    if (settings !== undefined) adapters.set(platform.name as PlatformName, platform.createAdapter(settings));
  }
  return adapters;
}

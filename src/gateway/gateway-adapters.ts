import type { DeploymentConfig } from '../config/deployment-config.ts';
import { INBOUND_ADAPTERS, type InboundAdapterFactory } from '../platforms/inbound-adapters.ts';
import type { PlatformAdapter } from '../platforms/platform-adapter.ts';
import { PLATFORM_NAMES, type PlatformName } from '../platforms/registry.ts';

/**
 * One adapter per enabled platform, in registry order (platforms/inbound-adapters.ts).
 *
 * @example
 * const adapters = createAdapters(config); adapters.get('telegram')?.handle(request);
 */
export function createAdapters(config: DeploymentConfig): Map<PlatformName, PlatformAdapter> {
  const adapters = new Map<PlatformName, PlatformAdapter>();
  const configs: Partial<Record<PlatformName, unknown>> = config.platforms;
  // Each factory is given the configuration its own platform's loader made.
  const factories: Record<PlatformName, InboundAdapterFactory<unknown>> = INBOUND_ADAPTERS as unknown as Record<
    PlatformName,
    InboundAdapterFactory<unknown>
  >;
  for (const name of PLATFORM_NAMES) {
    const settings = configs[name];
    if (settings !== undefined) adapters.set(name, factories[name](settings));
  }
  return adapters;
}

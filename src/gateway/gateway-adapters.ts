import { enabledPlatforms, type DeploymentConfig } from '../config/deployment-config.ts';
import { INBOUND_ADAPTERS, type InboundAdapterLoader } from '../platforms/inbound-adapters.ts';
import type { AdapterVerdict, InboundRequest, PlatformAdapter } from '../platforms/platform-adapter.ts';
import type { PlatformName } from '../platforms/registry.ts';

// Each loader is given the configuration its own platform's loader made.
const LOADERS = INBOUND_ADAPTERS as unknown as Record<PlatformName, InboundAdapterLoader<unknown>>;

/**
 * An adapter whose module loads on its first request (the module system caches it, so
 * {@link loadInboundAdapters} at cold start makes that load immediate).
 */
function adapterOnDemand(platform: PlatformName, settings: unknown): PlatformAdapter {
  let loaded: PlatformAdapter | undefined;
  let loading: Promise<PlatformAdapter> | undefined;
  return {
    platform,
    // Read by the app only after `handle` resolved, so the adapter is there by then.
    get repliesInline() {
      return loaded?.repliesInline;
    },
    async handle(request: InboundRequest): Promise<AdapterVerdict> {
      // A failed load is not kept: the next webhook tries again (the platform then retries this one on the 503).
      loading ??= LOADERS[platform]()
        .then((factory) => (loaded = factory(settings)))
        .catch((error: unknown) => {
          loading = undefined;
          throw error;
        });
      return (await loading).handle(request);
    },
  };
}

/**
 * One adapter per enabled platform, in registry order (platforms/inbound-adapters.ts). A
 * platform's code loads on its first webhook unless {@link loadInboundAdapters} loaded it.
 *
 * @example
 * const adapters = createAdapters(config); await adapters.get('telegram')?.handle(request);
 */
export function createAdapters(config: DeploymentConfig): Map<PlatformName, PlatformAdapter> {
  return new Map(enabledPlatforms(config).map((name) => [name, adapterOnDemand(name, config.platforms[name])]));
}

/**
 * Loads the inbound adapter modules of the enabled platforms, and only those. The deployed
 * gateway awaits it at cold start, so a platform's first webhook (inside Slack's and
 * Discord's 3-second window) does not compile its verification code.
 *
 * @example
 * await loadInboundAdapters(runtime.config);
 */
export async function loadInboundAdapters(config: DeploymentConfig): Promise<void> {
  await Promise.all(enabledPlatforms(config).map((name) => LOADERS[name]()));
}

import { enabledPlatforms } from '../config/deployment-config.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { errorText } from '../errors/error-text.ts';

/** A deployed version's startup claim never needs to expire (ten years). */
const STARTUP_CLAIM_SECONDS = 10 * 365 * 86_400;

/**
 * Emits `gateway:startup` with `platforms` (hook-semantics §2.4). In Lambda (`once`), only
 * the first cold start of a deployed version that wins the conditional write emits it;
 * `hookgate dev` emits it at every start. Never throws: a failure is logged.
 *
 * @example
 * await announceGatewayStartup(deps, { once: config.runtime === 'aws' });
 */
export async function announceGatewayStartup(
  deps: Pick<GatewayDeps, 'config' | 'engine' | 'dedup' | 'logger'>,
  options: { once: boolean },
): Promise<boolean> {
  const platforms = enabledPlatforms(deps.config);
  const key = `gateway-startup#${deps.config.resources.deploymentVersion}`;
  let claimed = false;
  try {
    if (options.once) {
      if (!(await deps.dedup.claim(key, STARTUP_CLAIM_SECONDS))) return false;
      claimed = true;
    }
    await deps.engine.observe('gateway:startup', { platforms });
    deps.logger.info('gateway:startup emitted', { platforms });
    return true;
  } catch (error) {
    deps.logger.warn('gateway:startup could not be emitted', { error: errorText(error) });
    // Let a later cold start of this version try again.
    if (claimed) await deps.dedup.release(key).catch(() => undefined);
    return false;
  }
}

import { enabledPlatforms } from '../config/deployment-config.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { errorText } from '../errors/error-text.ts';

/** A deployed version's startup claim never needs to expire (ten years). */
const STARTUP_CLAIM_SECONDS = 10 * 365 * 86_400;

/**
 * Claims `gateway:startup` for this deployed version (a conditional write in the dedup table):
 * true for the one cold start of the version that wins it. It needs no engine, so a cold start
 * can send it first and build the engine while it is in flight (`createGatewayFunction`).
 * Rejects when the table cannot be reached; {@link announceGatewayStartup} logs that.
 *
 * @example
 * const claim = claimGatewayStartup({ config, dedup: plane.dedup });
 * // … build the engine …
 * await announceGatewayStartup(deps, { once: true, claim });
 */
export function claimGatewayStartup(deps: Pick<GatewayDeps, 'config' | 'dedup'>): Promise<boolean> {
  return deps.dedup.claim(startupKey(deps), STARTUP_CLAIM_SECONDS);
}

/**
 * Emits `gateway:startup` with `platforms` (hook-semantics §2.4). In Lambda (`once`), only
 * the first cold start of a deployed version that wins the conditional write emits it (the
 * `claim` already sent, else one made here); `hookgate dev` emits it at every start. Never
 * throws: a failure is logged.
 *
 * @example
 * await announceGatewayStartup(deps, { once: config.runtime === 'aws' });
 */
export async function announceGatewayStartup(
  deps: Pick<GatewayDeps, 'config' | 'engine' | 'dedup' | 'logger'>,
  options: { once: boolean; claim?: Promise<boolean> },
): Promise<boolean> {
  const platforms = enabledPlatforms(deps.config);
  let claimed = false;
  try {
    if (options.once) {
      if (!(await (options.claim ?? claimGatewayStartup(deps)))) return false;
      claimed = true;
    }
    await deps.engine.observe('gateway:startup', { platforms });
    deps.logger.info('gateway:startup emitted', { platforms });
    return true;
  } catch (error) {
    deps.logger.warn('gateway:startup could not be emitted', { error: errorText(error) });
    // Let a later cold start of this version try again.
    if (claimed) await deps.dedup.release(startupKey(deps)).catch(() => undefined);
    return false;
  }
}

/**
 * Gives back a claim this cold start won but will not use (its start failed after sending the
 * claim): the next cold start of the version emits `gateway:startup`. Never throws.
 *
 * @example
 * await releaseGatewayStartup({ config, dedup }, claim);
 */
export async function releaseGatewayStartup(deps: Pick<GatewayDeps, 'config' | 'dedup'>, claim: Promise<boolean>): Promise<void> {
  if (await claim.catch(() => false)) await deps.dedup.release(startupKey(deps)).catch(() => undefined);
}

function startupKey(deps: Pick<GatewayDeps, 'config'>): string {
  return `gateway-startup#${deps.config.resources.deploymentVersion}`;
}

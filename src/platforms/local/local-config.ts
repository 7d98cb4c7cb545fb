import * as z from '../../validation/zod.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';

/** `local` has no settings: it is on or off. */
export type LocalConfig = Record<string, never>;

/** The one variable of `local`, and its format. */
export const LOCAL_ENV = { HOOKGATE_LOCAL_ADAPTER: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }) };

/** Unsigned, so nothing secret. */
export const LOCAL_SECRET_KEYS: PlatformSecretKeys = { gateway: [], reply: [] };

/** On in local runs unless `HOOKGATE_LOCAL_ADAPTER` says otherwise; off in AWS unless it says `true`. */
function localOn(read: EnvReader, runtime: 'local' | 'aws'): boolean {
  const flag = read('HOOKGATE_LOCAL_ADAPTER');
  return flag === undefined ? runtime === 'local' : flag === 'true' || flag === '1';
}

export function loadLocalInbound(read: EnvReader, runtime: 'local' | 'aws'): InboundSettings<LocalConfig> {
  return localOn(read, runtime) ? { config: {} } : { missing: ['HOOKGATE_LOCAL_ADAPTER=true (or a local run)'] };
}

export function loadLocalReply(read: EnvReader, runtime: 'local' | 'aws'): LocalConfig | undefined {
  return localOn(read, runtime) ? {} : undefined;
}

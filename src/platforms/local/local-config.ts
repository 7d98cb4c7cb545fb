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
  if (localOn(read, runtime)) return { config: {} };
  // Turned off on purpose in a local run: say which setting did it, not "or a local run".
  return { missing: [runtime === 'local' ? 'HOOKGATE_LOCAL_ADAPTER=true (it is false)' : 'HOOKGATE_LOCAL_ADAPTER=true'] };
}

export function loadLocalReply(read: EnvReader, runtime: 'local' | 'aws'): LocalConfig | undefined {
  return localOn(read, runtime) ? {} : undefined;
}

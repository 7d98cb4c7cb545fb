import { PLATFORM_NAMES } from '../platforms/registry.ts';
import { ConfigError } from './config-error.ts';

/**
 * Who may talk to the bot (`HOOKGATE_ALLOWED_USERS`, e.g. `telegram:123,slack:U1`).
 * `*` allows everyone and `<platform>:*` everyone on one platform. `undefined` means the
 * variable is unset: everyone in local runs, no one in AWS.
 */
export interface AllowedUsers {
  readonly everyone: boolean;
  readonly platforms: ReadonlySet<string>;
  readonly users: ReadonlySet<string>;
}

/**
 * @example
 * const allowed = parseAllowedUsers('telegram:123,slack:*');
 * isAllowed(allowed, 'slack', 'U9', 'aws'); // true
 */
export function parseAllowedUsers(raw: string | undefined, variable = 'HOOKGATE_ALLOWED_USERS'): AllowedUsers | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let everyone = false;
  const platforms = new Set<string>();
  const users = new Set<string>();
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (part === '*') {
      everyone = true;
      continue;
    }
    const colon = part.indexOf(':');
    if (colon <= 0 || colon === part.length - 1) {
      throw new ConfigError(variable, `has an entry that is not <platform>:<user id> (got ${JSON.stringify(part)})`);
    }
    // `telegram: 123` means telegram:123; a platform hookgate does not have (a typo, `Local`) would lock its users out silently.
    const platform = part.slice(0, colon).trim();
    const user = part.slice(colon + 1).trim();
    if (!(PLATFORM_NAMES as readonly string[]).includes(platform)) {
      throw new ConfigError(
        variable,
        `names a platform hookgate does not have: ${JSON.stringify(platform)} in ${JSON.stringify(part)} (platforms: ${PLATFORM_NAMES.join(', ')})`,
      );
    }
    if (user === '')
      throw new ConfigError(variable, `has an entry that is not <platform>:<user id> (got ${JSON.stringify(part)})`);
    if (user === '*') platforms.add(platform);
    else users.add(`${platform}:${user}`);
  }
  return { everyone, platforms, users };
}

export function isAllowed(
  allowed: AllowedUsers | undefined,
  platform: string,
  userId: string | null,
  runtime: 'local' | 'aws',
): boolean {
  if (allowed === undefined) return runtime === 'local';
  if (allowed.everyone || allowed.platforms.has(platform)) return true;
  return userId !== null && allowed.users.has(`${platform}:${userId}`);
}

/**
 * Whether a user is listed (`HOOKGATE_APPROVERS`, same syntax): unlike `isAllowed`, an unset
 * list names no one, in every runtime.
 *
 * @example
 * isListed(parseAllowedUsers('telegram:1', 'HOOKGATE_APPROVERS'), 'telegram', '1'); // true
 */
export function isListed(list: AllowedUsers | undefined, platform: string, userId: string | null): boolean {
  if (list === undefined) return false;
  if (list.everyone || list.platforms.has(platform)) return true;
  return userId !== null && list.users.has(`${platform}:${userId}`);
}

import type { AnyPlatform } from './platform.ts';
import { discordPlatform } from './discord/discord-platform.ts';
import { localPlatform } from './local/local-platform.ts';
import { slackPlatform } from './slack/slack-platform.ts';
import { teamsPlatform } from './teams/teams-platform.ts';
import { telegramPlatform } from './telegram/telegram-platform.ts';
import { whatsAppPlatform } from './whatsapp/whatsapp-platform.ts';

/**
 * Every chat platform the gateway serves (architecture §4), in the fixed order of start-up
 * logs and the `platforms` context of gateway:startup. Adding a platform is its folder, one
 * line here and one in inbound-adapters.ts, which the compiler asks for (docs/gateway.md,
 * "Adding a platform").
 *
 * @example
 * for (const platform of PLATFORMS) console.log(platform.name, platform.secretKeys.gateway);
 */
export const PLATFORMS = [
  telegramPlatform,
  slackPlatform,
  discordPlatform,
  whatsAppPlatform,
  teamsPlatform,
  localPlatform,
] as const;

export type RegisteredPlatform = (typeof PLATFORMS)[number];
export type PlatformName = RegisteredPlatform['name'];

/** The platforms' names, in registry order. */
export const PLATFORM_NAMES: readonly PlatformName[] = PLATFORMS.map((platform) => platform.name);

/** The inbound configuration of platform `P` (what `loadInbound` makes). */
export type InboundOf<P extends AnyPlatform> = Extract<ReturnType<P['loadInbound']>, { config: unknown }>['config'];
/** The reply configuration of platform `P`. */
export type ReplyOf<P extends AnyPlatform> = Parameters<P['createReplySender']>[0];

/** Each enabled platform's inbound configuration (what the gateway needs), by name. */
export type InboundPlatforms = { [P in RegisteredPlatform as P['name']]?: InboundOf<P> };
/** Each platform's reply configuration (what answering needs), by name. */
export type ReplyPlatforms = { [P in RegisteredPlatform as P['name']]?: ReplyOf<P> };

/** The registry seen as platforms of any configuration (for loops that pass each its own). */
export const ANY_PLATFORMS: readonly AnyPlatform[] = PLATFORMS;

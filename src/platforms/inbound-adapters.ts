import { discordAdapter } from './discord/discord-adapter.ts';
import { localAdapter } from './local/local-adapter.ts';
import type { PlatformAdapter } from './platform-adapter.ts';
import type { InboundOf, RegisteredPlatform } from './registry.ts';
import { slackAdapter } from './slack/slack-adapter.ts';
import { teamsAdapter } from './teams/teams-adapter.ts';
import { telegramAdapter } from './telegram/telegram-adapter.ts';
import { whatsAppAdapter } from './whatsapp/whatsapp-adapter.ts';

/** Builds a platform's inbound adapter from its inbound configuration. */
export type InboundAdapterFactory<Config> = (config: Config) => PlatformAdapter;

/**
 * Each registered platform's inbound adapter (verification, handshakes, parsing). Apart from
 * the registry because only the gateway needs it (the libraries that verify webhooks stay out
 * of the turn and observer bundles); its type asks for one entry per registered platform, so
 * a platform added to registry.ts without its adapter does not compile.
 *
 * @example
 * const adapter = INBOUND_ADAPTERS.telegram(config.platforms.telegram!);
 */
export const INBOUND_ADAPTERS: { readonly [P in RegisteredPlatform as P['name']]: InboundAdapterFactory<InboundOf<P>> } = {
  telegram: telegramAdapter,
  slack: (config) => slackAdapter(config),
  discord: discordAdapter,
  whatsapp: whatsAppAdapter,
  teams: teamsAdapter,
  local: () => localAdapter(),
};

import type { PlatformAdapter } from './platform-adapter.ts';
import type { InboundOf, RegisteredPlatform } from './registry.ts';

/** Builds a platform's inbound adapter from its inbound configuration. */
export type InboundAdapterFactory<Config> = (config: Config) => PlatformAdapter;

/** Loads a platform's inbound adapter module and gives its factory. */
export type InboundAdapterLoader<Config> = () => Promise<InboundAdapterFactory<Config>>;

/**
 * Each registered platform's inbound adapter (verification, handshakes, parsing), loaded on
 * demand: a gateway compiles the code (and the verification libraries, jose and
 * discord-interactions) of the platforms it has enabled, not of all of them. Apart from the
 * registry because only the gateway needs it (the turn and observer bundles never reach these
 * modules); its type asks for one entry per registered platform, so a platform added to
 * registry.ts without its adapter does not compile.
 *
 * @example
 * const adapter = (await INBOUND_ADAPTERS.telegram())(config.platforms.telegram!);
 */
export const INBOUND_ADAPTERS: { readonly [P in RegisteredPlatform as P['name']]: InboundAdapterLoader<InboundOf<P>> } = {
  telegram: async () => (await import('./telegram/telegram-adapter.ts')).telegramAdapter,
  slack: async () => {
    const { slackAdapter } = await import('./slack/slack-adapter.ts');
    return (config) => slackAdapter(config);
  },
  discord: async () => (await import('./discord/discord-adapter.ts')).discordAdapter,
  whatsapp: async () => (await import('./whatsapp/whatsapp-adapter.ts')).whatsAppAdapter,
  teams: async () => (await import('./teams/teams-adapter.ts')).teamsAdapter,
  local: async () => {
    const { localAdapter } = await import('./local/local-adapter.ts');
    return () => localAdapter();
  },
};

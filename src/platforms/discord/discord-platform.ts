import type { Platform } from '../platform.ts';
import { discordDownload } from './discord-download.ts';
import { DISCORD_ENV, DISCORD_SECRET_KEYS, loadDiscordInbound, loadDiscordReply, type DiscordConfig } from './discord-config.ts';
import { sendDiscordReply, type DiscordReplyOptions } from './discord-reply.ts';

/**
 * Discord: signed interactions (PING answered, slash commands deferred or answered inline),
 * replies as interaction follow-ups.
 */
export const discordPlatform: Platform<'discord', DiscordConfig, DiscordReplyOptions> = {
  name: 'discord',
  env: DISCORD_ENV,
  secretKeys: DISCORD_SECRET_KEYS,
  loadInbound: loadDiscordInbound,
  loadReply: loadDiscordReply,
  createReplySender:
    (config, { retry }) =>
    (target, text) =>
      sendDiscordReply(config, target, text, retry),
  createDownloader: discordDownload,
};

import { fetchBounded, rebased } from '../bounded-fetch.ts';
import { platformOff, type AttachmentFetch } from '../platform.ts';
import { DISCORD_DEFAULT_API_BASE_URL } from './discord-config.ts';
import type { DiscordReplyOptions } from './discord-reply.ts';

/**
 * The attachment's CDN URL (Discord signs it; no token); with `DISCORD_API_BASE_URL` set
 * elsewhere than Discord's, its path is requested at that base.
 */
export function discordDownload(config: DiscordReplyOptions | undefined): AttachmentFetch<'discord'> {
  return async (source, maxBytes, signal) => {
    if (!config) throw platformOff('discord');
    const fileBase = config.apiBaseUrl === DISCORD_DEFAULT_API_BASE_URL ? undefined : config.apiBaseUrl;
    return fetchBounded(rebased(source.url, fileBase), {}, maxBytes, 'discord attachment', signal);
  };
}

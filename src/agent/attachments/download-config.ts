import type { DeploymentConfig } from '../../config/deployment-config.ts';
import { DISCORD_DEFAULT_API_BASE_URL } from '../../platforms/discord/discord-config.ts';
import { SLACK_DEFAULT_API_BASE_URL } from '../../platforms/slack/slack-config.ts';
import { WHATSAPP_DEFAULT_API_BASE_URL } from '../../platforms/whatsapp/whatsapp-config.ts';
import type { AttachmentDownloadConfig } from '../../platforms/attachment-download.ts';

/**
 * The downloads' view of the deployment's reply credentials (what the turn function holds: the bot tokens). A platform whose API base URL the
 * operator set (`SLACK_API_BASE_URL`, `DISCORD_API_BASE_URL`, `WHATSAPP_API_BASE_URL`) gets
 * its file URLs requested at that base too (`fileBaseUrl`); at the default base they are
 * fetched where the platform put them.
 *
 * @example
 * createAttachmentDownloader(attachmentDownloadConfigOf(config.replyPlatforms));
 */
export function attachmentDownloadConfigOf(platforms: DeploymentConfig['replyPlatforms']): AttachmentDownloadConfig {
  const { telegram, slack, discord, whatsapp, teams } = platforms;
  const fileBase = (base: string, fallback: string) => (base === fallback ? {} : { fileBaseUrl: base });
  return {
    platforms: {
      ...(telegram ? { telegram } : {}),
      ...(slack ? { slack: { ...slack, ...fileBase(slack.apiBaseUrl, SLACK_DEFAULT_API_BASE_URL) } } : {}),
      ...(discord ? { discord: { ...discord, ...fileBase(discord.apiBaseUrl, DISCORD_DEFAULT_API_BASE_URL) } } : {}),
      ...(whatsapp ? { whatsapp: { ...whatsapp, ...fileBase(whatsapp.apiBaseUrl, WHATSAPP_DEFAULT_API_BASE_URL) } } : {}),
      ...(teams ? { teams } : {}),
    },
  };
}

import type { AttachmentSource } from '../messaging/attachment.ts';
import type { AttachmentFetch } from './platform.ts';
import { ANY_PLATFORMS, type ReplyPlatforms } from './registry.ts';

/**
 * What the downloads need of the deployment's platforms: their reply credentials (what the
 * turn function holds: the bot tokens). A platform whose API base URL the operator set
 * (`*_API_BASE_URL`: a proxy, a test's fake) gets the file URLs it hands out (Slack
 * `url_private`, Discord's CDN, WhatsApp's media URL) requested at that base with their path,
 * so every download goes through the configured API base URL.
 */
export interface AttachmentDownloadConfig {
  platforms: ReplyPlatforms;
}

/** Fetches an attachment's bytes through its platform's download API, never more than `maxBytes`. */
export interface AttachmentDownloader {
  download(source: AttachmentSource, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
}

/**
 * The downloader of every platform, each its registry entry's (`<name>/<name>-download.ts`;
 * docs/attachments.md):
 *
 * - Telegram: `GET {base}/bot<token>/getFile?file_id=…`, then `{base}/file/bot<token>/<file_path>`;
 * - Slack: `url_private_download` with `Authorization: Bearer <bot token>`;
 * - Discord: the attachment's CDN URL (Discord signs it; no token);
 * - WhatsApp: `GET {base}/<media id>` with the access token for a short-lived URL, then that URL with the token;
 * - Teams: `contentUrl` under the activity's serviceUrl with the bot's token, or a file's pre-authenticated `downloadUrl`;
 * - local: the bytes the message carried.
 *
 * A platform that is not enabled, an HTTP error or a malformed answer is an
 * `AttachmentDownloadError`; a body over `maxBytes` (declared or read) an `AttachmentTooLargeError`,
 * and the download stops there.
 *
 * @example
 * const downloader = createAttachmentDownloader(config);
 * const bytes = await downloader.download({ platform: 'telegram', file_id: 'AgAC…' }, 5 * 1024 * 1024);
 */
export function createAttachmentDownloader(config: AttachmentDownloadConfig): AttachmentDownloader {
  const configs: Partial<Record<string, unknown>> = config.platforms;
  const fetchers = new Map<string, AttachmentFetch<string>>(
    ANY_PLATFORMS.map((platform) => [platform.name, platform.createDownloader(configs[platform.name])]),
  );
  return {
    async download(source, maxBytes, signal) {
      // Every source names a registered platform (AttachmentSourceSchema): there is always one.
      const fetch = fetchers.get(source.platform) as AttachmentFetch<string>;
      return fetch(source, maxBytes, signal);
    },
  };
}

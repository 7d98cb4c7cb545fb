import * as z from 'zod';
import { HookgateError } from '../errors/hookgate-error.ts';
import type { AttachmentSource } from '../messaging/attachment.ts';
import { TeamsTokenSource, type TeamsReplyOptions } from './teams/teams-token-source.ts';

/** The attachment is larger than its kind's limit (said by the platform or found while reading). */
export class AttachmentTooLargeError extends HookgateError {
  override readonly name = 'AttachmentTooLargeError';
  constructor(
    /** Bytes, or at least this many when the download was cut at the limit. */
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the file is over ${limit} bytes`);
  }
}

/** The platform did not hand the bytes over (HTTP error, no answer, a malformed answer). */
export class AttachmentDownloadError extends HookgateError {
  override readonly name = 'AttachmentDownloadError';
}

/**
 * What the downloads need of the deployment's platforms (the deployment config has it).
 * `fileBaseUrl` is set when the operator pointed the platform's API somewhere else
 * (`*_API_BASE_URL`: a proxy, a test's fake): file URLs the platform hands out (Slack
 * `url_private`, Discord's CDN, WhatsApp's media URL) are then requested at that base with
 * their path, so every download goes through the configured API base URL.
 */
export interface AttachmentDownloadConfig {
  platforms: {
    telegram?: { botToken: string; apiBaseUrl: string };
    slack?: { botToken: string; apiBaseUrl: string; fileBaseUrl?: string };
    discord?: { apiBaseUrl: string; fileBaseUrl?: string };
    whatsapp?: { accessToken: string; apiBaseUrl: string; fileBaseUrl?: string };
    teams?: TeamsReplyOptions;
  };
}

/** Fetches an attachment's bytes through its platform's download API, never more than `maxBytes`. */
export interface AttachmentDownloader {
  download(source: AttachmentSource, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
}

const TelegramGetFile = z.object({ ok: z.literal(true), result: z.looseObject({ file_path: z.string().min(1), file_size: z.number().optional() }) });
const WhatsAppMediaUrl = z.looseObject({ url: z.string().min(1), file_size: z.coerce.number().optional() });

/** One download may take this long (each request). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * The downloader of every enabled platform (docs/attachments.md):
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
  const teamsTokens = config.platforms.teams ? new TeamsTokenSource(config.platforms.teams) : undefined;
  const off = (platform: string) => new AttachmentDownloadError(`${platform} is not enabled here; its attachment cannot be downloaded`);
  return {
    async download(source, maxBytes, signal) {
      switch (source.platform) {
        case 'local': {
          const bytes = Buffer.from(source.data_base64, 'base64');
          if (bytes.length > maxBytes) throw new AttachmentTooLargeError(bytes.length, maxBytes);
          return bytes;
        }
        case 'telegram': {
          const telegram = config.platforms.telegram;
          if (!telegram) throw off('telegram');
          const answer = TelegramGetFile.safeParse(
            await fetchJson(`${telegram.apiBaseUrl}/bot${telegram.botToken}/getFile?file_id=${encodeURIComponent(source.file_id)}`, {}, 'telegram getFile', signal),
          );
          if (!answer.success) throw new AttachmentDownloadError('telegram getFile: the answer has no file_path');
          if (answer.data.result.file_size !== undefined && answer.data.result.file_size > maxBytes) throw new AttachmentTooLargeError(answer.data.result.file_size, maxBytes);
          return fetchBounded(`${telegram.apiBaseUrl}/file/bot${telegram.botToken}/${answer.data.result.file_path}`, {}, maxBytes, 'telegram file', signal);
        }
        case 'slack': {
          const slack = config.platforms.slack;
          if (!slack) throw off('slack');
          return fetchBounded(rebased(source.url, slack.fileBaseUrl), bearer(slack.botToken), maxBytes, 'slack file', signal);
        }
        case 'discord': {
          const discord = config.platforms.discord;
          if (!discord) throw off('discord');
          return fetchBounded(rebased(source.url, discord.fileBaseUrl), {}, maxBytes, 'discord attachment', signal);
        }
        case 'whatsapp': {
          const whatsapp = config.platforms.whatsapp;
          if (!whatsapp) throw off('whatsapp');
          const media = WhatsAppMediaUrl.safeParse(await fetchJson(`${whatsapp.apiBaseUrl}/${encodeURIComponent(source.media_id)}`, bearer(whatsapp.accessToken), 'whatsapp media', signal));
          if (!media.success) throw new AttachmentDownloadError('whatsapp media: the answer has no url');
          if (media.data.file_size !== undefined && media.data.file_size > maxBytes) throw new AttachmentTooLargeError(media.data.file_size, maxBytes);
          return fetchBounded(rebased(media.data.url, whatsapp.fileBaseUrl), bearer(whatsapp.accessToken), maxBytes, 'whatsapp media file', signal);
        }
        case 'teams': {
          if (!source.auth) return fetchBounded(source.url, {}, maxBytes, 'teams file', signal);
          if (!teamsTokens) throw off('teams');
          let token: string;
          try {
            token = await teamsTokens.token();
          } catch (error) {
            throw new AttachmentDownloadError(`teams attachment: ${(error as Error).message}`);
          }
          return fetchBounded(source.url, bearer(token), maxBytes, 'teams attachment', signal);
        }
      }
    },
  };
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** `https://files.slack.com/files-pri/T-F/x.png` at base `http://proxy/slack` → `http://proxy/slack/files-pri/T-F/x.png`. */
function rebased(url: string, base: string | undefined): string {
  if (!base) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AttachmentDownloadError('the attachment URL is not a URL');
  }
  return `${base}${parsed.pathname}${parsed.search}`;
}

async function fetchJson(url: string, headers: Record<string, string>, what: string, signal?: AbortSignal): Promise<unknown> {
  const bytes = await fetchBounded(url, headers, 1024 * 1024, what, signal);
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new AttachmentDownloadError(`${what}: the answer is not JSON`);
  }
}

/** GET `url`; the body is read up to `maxBytes` and the request dropped past it. */
async function fetchBounded(url: string, headers: Record<string, string>, maxBytes: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'follow', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throw new AttachmentDownloadError(`${what}: no answer (${(error as Error).message})`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new AttachmentDownloadError(`${what}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new AttachmentTooLargeError(declared, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new AttachmentTooLargeError(total, maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof AttachmentTooLargeError) throw error;
    throw new AttachmentDownloadError(`${what}: the download broke off (${(error as Error).message})`);
  }
  return Buffer.concat(chunks);
}

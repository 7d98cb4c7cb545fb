import * as z from '../../validation/zod.ts';
import { AttachmentDownloadError, AttachmentTooLargeError } from '../attachment-download-errors.ts';
import { fetchBounded, fetchJson } from '../bounded-fetch.ts';
import { platformOff, type AttachmentFetch } from '../platform.ts';
import type { TelegramReplyOptions } from './telegram-reply.ts';

const TelegramGetFile = z.object({
  ok: z.literal(true),
  result: z.looseObject({ file_path: z.string().check(z.minLength(1)), file_size: z.optional(z.number()) }),
});

/** Bot API `GET {base}/bot<token>/getFile?file_id=…`, then `{base}/file/bot<token>/<file_path>`. */
export function telegramDownload(config: TelegramReplyOptions | undefined): AttachmentFetch<'telegram'> {
  return async (source, maxBytes, signal) => {
    if (!config) throw platformOff('telegram');
    const answer = TelegramGetFile.safeParse(
      await fetchJson(
        `${config.apiBaseUrl}/bot${config.botToken}/getFile?file_id=${encodeURIComponent(source.file_id)}`,
        {},
        'telegram getFile',
        signal,
      ),
    );
    if (!answer.success) throw new AttachmentDownloadError('telegram getFile: the answer has no file_path');
    if (answer.data.result.file_size !== undefined && answer.data.result.file_size > maxBytes)
      throw new AttachmentTooLargeError(answer.data.result.file_size, maxBytes);
    return fetchBounded(
      `${config.apiBaseUrl}/file/bot${config.botToken}/${answer.data.result.file_path}`,
      {},
      maxBytes,
      'telegram file',
      signal,
    );
  };
}

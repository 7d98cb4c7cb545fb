import * as z from '../../validation/zod.ts';
import { AttachmentDownloadError, AttachmentTooLargeError } from '../attachment-download-errors.ts';
import { bearer, fetchBounded, fetchJson, rebased } from '../bounded-fetch.ts';
import { platformOff, type AttachmentFetch } from '../platform.ts';
import { WHATSAPP_DEFAULT_API_BASE_URL } from './whatsapp-config.ts';
import type { WhatsAppReplyOptions } from './whatsapp-reply.ts';

const WhatsAppMediaUrl = z.looseObject({ url: z.string().check(z.minLength(1)), file_size: z.optional(z.coerce.number()) });

/**
 * Graph API `GET {base}/<media id>` with the access token for a short-lived URL, then that URL
 * with the token (its path at `WHATSAPP_API_BASE_URL` when that is set elsewhere than Meta's).
 */
export function whatsAppDownload(config: WhatsAppReplyOptions | undefined): AttachmentFetch<'whatsapp'> {
  return async (source, maxBytes, signal) => {
    if (!config) throw platformOff('whatsapp');
    const fileBase = config.apiBaseUrl === WHATSAPP_DEFAULT_API_BASE_URL ? undefined : config.apiBaseUrl;
    const media = WhatsAppMediaUrl.safeParse(
      await fetchJson(
        `${config.apiBaseUrl}/${encodeURIComponent(source.media_id)}`,
        bearer(config.accessToken),
        'whatsapp media',
        signal,
      ),
    );
    if (!media.success) throw new AttachmentDownloadError('whatsapp media: the answer has no url');
    if (media.data.file_size !== undefined && media.data.file_size > maxBytes)
      throw new AttachmentTooLargeError(media.data.file_size, maxBytes);
    return fetchBounded(rebased(media.data.url, fileBase), bearer(config.accessToken), maxBytes, 'whatsapp media file', signal);
  };
}

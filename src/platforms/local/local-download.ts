import { AttachmentTooLargeError } from '../attachment-download-errors.ts';
import type { AttachmentFetch } from '../platform.ts';

/** The bytes the message carried (`data_base64`): nothing to fetch, whether or not `local` is on here. */
export function localDownload(): AttachmentFetch<'local'> {
  return async (source, maxBytes) => {
    const bytes = Buffer.from(source.data_base64, 'base64');
    if (bytes.length > maxBytes) throw new AttachmentTooLargeError(bytes.length, maxBytes);
    return bytes;
  };
}

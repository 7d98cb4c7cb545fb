/** Claimed types that are text even when they are not `text/*`. */
const TEXT_TYPES = /^(text\/[\w.+-]+|application\/(json|xml|yaml|x-yaml|javascript|x-sh|toml|csv|[\w.+-]+\+(json|xml)))$/i;

/**
 * The MIME type of `bytes`, from their content, not from what the platform said: the magic
 * numbers `file-type` knows (images, audio, video, PDF, archives, Office files…; an Ogg
 * container of unnamed codec is `audio/ogg`), else
 * text when they decode as UTF-8 without NUL bytes (then the claimed type when it is a
 * text type, else `text/plain`), else `application/octet-stream`.
 *
 * @example
 * await sniffMime(pngBytes, 'application/pdf'); // 'image/png'
 */
export async function sniffMime(bytes: Uint8Array, claimed: string): Promise<string> {
  // Loaded on the first attachment: a turn without one never pays for it at cold start.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(bytes);
  // An Ogg container whose codec file-type does not name is, in a chat, a voice note.
  if (found) return found.mime === 'application/ogg' ? 'audio/ogg' : found.mime;
  if (isUtf8Text(bytes)) return TEXT_TYPES.test(claimed) ? claimed.toLowerCase() : 'text/plain';
  return 'application/octet-stream';
}

/** True for a text MIME type (what `sniffMime` says of text). */
export function isTextMime(mime: string): boolean {
  return TEXT_TYPES.test(mime);
}

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

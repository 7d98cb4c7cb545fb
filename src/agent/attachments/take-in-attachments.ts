import { kindOfMime, type Attachment, type AttachmentKind } from '../../messaging/attachment.ts';
import type { AttachmentDownloader } from '../../platforms/attachment-download.ts';
import { AttachmentTooLargeError } from '../../platforms/attachment-download-errors.ts';
import type { StoredAttachment } from '../../store/stored-attachment.ts';
import { ATTACHMENT_LIMITS, formatBytes } from './attachment-limits.ts';
import { isTextMime, sniffMime } from './sniff-mime.ts';
import type { Transcriber } from './transcribe-audio.ts';
import { errorText } from '../../errors/error-text.ts';

/** Where the turn keeps attachments' bytes (the payload bucket: `S3AttachmentStore`). */
export interface AttachmentBytesStore {
  put(sessionId: string, name: string, body: Uint8Array, contentType: string): Promise<{ key: string }>;
  get(key: string): Promise<Uint8Array>;
  presignedUrl(key: string, expiresInSeconds: number): Promise<string>;
}

/** What the turn runs attachments with; downloader and store absent = attachments are noted, not fetched. */
export interface AttachmentDeps {
  downloader?: AttachmentDownloader;
  store?: AttachmentBytesStore;
  /** Transcribes audio (`HOOKGATE_TRANSCRIPTION_BASE_URL`); absent = audio gets a note instead. */
  transcribe?: Transcriber;
}

export type AttachmentIntake =
  | { kind: 'taken'; attachments: StoredAttachment[] }
  /** A file over its limit: the message goes no further; `reply` tells the chat why. */
  | { kind: 'refused'; reply: string; reason: string };

/** The image types OpenAI-compatible models take as `image_url`. */
export const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

const KIND_WORDS: Record<AttachmentKind, string> = { image: 'images', file: 'files', audio: 'audio files', video: 'videos' };

/**
 * Fetches a message's attachments in the turn, after the gateway acknowledged it
 * (docs/attachments.md): each through its platform's download API, cut at its kind's size
 * limit; its MIME type sniffed from the bytes; stored in the payload bucket under the
 * session; recorded with what the model will be told. A file over its limit (by the
 * platform's word or by its bytes) refuses the whole message. A download that fails is
 * recorded as such, and the turn goes on without it.
 *
 * @example
 * const intake = await takeInAttachments(event.attachments ?? [], sessionId, deps);
 * if (intake.kind === 'refused') await replier.send(target, intake.reply);
 */
export async function takeInAttachments(
  attachments: readonly Attachment[],
  sessionId: string,
  deps: AttachmentDeps,
  signal?: AbortSignal,
): Promise<AttachmentIntake> {
  for (const attachment of attachments) {
    const limit = ATTACHMENT_LIMITS.maxBytes[attachment.kind];
    if (attachment.size !== null && attachment.size > limit) return refused(attachment, attachment.kind, attachment.size, limit);
  }
  const out: StoredAttachment[] = [];
  for (const attachment of attachments) {
    const claimedLimit = ATTACHMENT_LIMITS.maxBytes[attachment.kind];
    const base = { claimed_mime_type: attachment.mime_type, name: attachment.name };
    if (!deps.downloader || !deps.store) {
      out.push({
        ...base,
        kind: attachment.kind,
        mime_type: attachment.mime_type,
        size: attachment.size ?? 0,
        key: null,
        note: `[${attachment.kind} ${attachment.name} attached: not fetched (attachments are not set up here)]`,
      });
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await deps.downloader.download(attachment.source, claimedLimit, signal);
    } catch (error) {
      if (error instanceof AttachmentTooLargeError) return refused(attachment, attachment.kind, error.bytes, error.limit);
      const reason = errorText(error);
      out.push({
        ...base,
        kind: attachment.kind,
        mime_type: attachment.mime_type,
        size: attachment.size ?? 0,
        key: null,
        note: `[${attachment.kind} ${attachment.name} attached: it could not be downloaded (${reason})]`,
      });
      continue;
    }
    const mime = await sniffMime(bytes, attachment.mime_type);
    const kind = kindOfMime(mime);
    if (bytes.length > ATTACHMENT_LIMITS.maxBytes[kind])
      return refused(attachment, kind, bytes.length, ATTACHMENT_LIMITS.maxBytes[kind]);
    const { key } = await deps.store.put(sessionId, attachment.name, bytes, mime);
    const described =
      kind === 'audio' && deps.transcribe
        ? await transcribed(deps.transcribe, mime, attachment.name, bytes, signal)
        : describe(kind, mime, attachment.name, bytes);
    out.push({ ...base, kind, mime_type: mime, size: bytes.length, key, ...described });
  }
  return { kind: 'taken', attachments: out };
}

/** A voice note's transcript (cut like a document's text), or a note saying why there is none. */
async function transcribed(
  transcribe: Transcriber,
  mime: string,
  name: string,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<{ note: string; text?: string }> {
  const what = `${name} (${mime}, ${formatBytes(bytes.length)})`;
  try {
    const text = await transcribe(bytes, mime, name, signal);
    const limit = ATTACHMENT_LIMITS.documentChars;
    return {
      note: `[audio ${what} attached; its transcript follows]`,
      text: text.length <= limit ? text : `${text.slice(0, limit)}\n[… cut: ${text.length - limit} more characters]`,
    };
  } catch (error) {
    return { note: `[audio ${what} attached: the transcription failed (${errorText(error)})]` };
  }
}

function refused(attachment: Attachment, kind: AttachmentKind, bytes: number, limit: number): AttachmentIntake {
  const size = bytes > limit ? `over ${formatBytes(limit)}` : formatBytes(bytes);
  return {
    kind: 'refused',
    reason: `${attachment.name}: ${bytes} bytes, limit ${limit}`,
    reply: `⚠️ ${attachment.name} is too large (${size}); ${KIND_WORDS[kind]} may be at most ${formatBytes(limit)}. Your message was not passed on.`,
  };
}

/** What the model is told of one attachment, and a text document's text. */
function describe(kind: AttachmentKind, mime: string, name: string, bytes: Uint8Array): { note: string; text?: string } {
  const what = `${name} (${mime}, ${formatBytes(bytes.length)})`;
  if (kind === 'image') {
    return MODEL_IMAGE_TYPES.has(mime)
      ? { note: `[image ${what} attached]` }
      : { note: `[image ${what} attached: not shown (the model takes PNG, JPEG, WebP and GIF)]` };
  }
  if (kind === 'audio') return { note: `[audio ${what} attached: not transcribed (no transcription endpoint is configured)]` };
  if (kind === 'video') return { note: `[video ${what} attached: stored, not shown to the model]` };
  if (!isTextMime(mime)) return { note: `[file ${what} attached: not read (only text files are given to the model)]` };
  const text = new TextDecoder('utf-8').decode(bytes);
  const limit = ATTACHMENT_LIMITS.documentChars;
  if (text.length <= limit) return { note: `[file ${what} attached; its text follows]`, text };
  return {
    note: `[file ${what} attached; its first ${limit} characters follow]`,
    text: `${text.slice(0, limit)}\n[… cut: ${text.length - limit} more characters]`,
  };
}

import type { AttachmentKind } from '../../messaging/attachment.ts';

/**
 * The limits of the attachment flow (docs/attachments.md, "Limits and costs"). A file over
 * its kind's size is refused with a reply and the message goes no further.
 */
export const ATTACHMENT_LIMITS = {
  /** Bytes per file, by kind (images go to the model inline, base64: a third larger). */
  maxBytes: { image: 5 * 1024 * 1024, file: 20 * 1024 * 1024, audio: 20 * 1024 * 1024, video: 20 * 1024 * 1024 } satisfies Record<
    AttachmentKind,
    number
  >,
  /** Characters of a text document the model reads; the rest is cut with a marker. */
  documentChars: 20_000,
  /** Lifetime of the presigned URLs hooks get. */
  urlSeconds: 15 * 60,
} as const;

/**
 * `1536` → `1.5 KB`: sizes as the chat reads them.
 *
 * @example
 * formatBytes(5 * 1024 * 1024); // '5 MB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

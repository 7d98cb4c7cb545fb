import * as z from '../validation/zod.ts';

/**
 * An attachment as the turn recorded it on the user's message (transcript and turn state):
 * what the bytes turned out to be (MIME type sniffed from them, their size), where they are
 * in the payload bucket, and what the model is told of them. docs/attachments.md.
 */
export const StoredAttachmentSchema = z.object({
  kind: z.enum(['image', 'file', 'audio', 'video']),
  /** Sniffed from the bytes; the platform's claim is `claimed_mime_type`. */
  mime_type: z.string(),
  claimed_mime_type: z.string(),
  size: z.int().check(z.nonnegative()),
  name: z.string(),
  /** The object key in the payload bucket; null when the bytes could not be fetched. */
  key: z.nullable(z.string()),
  /** A text document's text (cut to the limit), or an audio's transcript. */
  text: z.optional(z.string()),
  /** One line the model reads about it (and what it got instead of the bytes when it got none). */
  note: z.string(),
});
export type StoredAttachment = z.infer<typeof StoredAttachmentSchema>;

import type { ContentPart, WireMessage } from '../model/chat-wire.ts';
import type { TranscriptMessage } from '../../store/transcript-store.ts';
import type { StoredAttachment } from '../../store/stored-attachment.ts';
import { MODEL_IMAGE_TYPES, type AttachmentBytesStore } from './take-in-attachments.ts';

/**
 * A user message's text as the model reads it: what the user wrote, then one line per
 * attachment, each text document's text under its line (docs/attachments.md).
 *
 * @example
 * userText({ role: 'user', content: 'see', attachments: [{ note: '[image cat.png (image/png, 2 KB) attached]', … }] });
 * // 'see\n\n[image cat.png (image/png, 2 KB) attached]'
 */
export function userText(message: Pick<TranscriptMessage, 'content' | 'attachments'>): string {
  const parts = message.content ? [message.content] : [];
  for (const attachment of message.attachments ?? [])
    parts.push(attachment.text === undefined ? attachment.note : `${attachment.note}\n${attachment.text}`);
  return parts.join('\n\n');
}

/** The images of the current turn's message the model is shown, as data URLs (read back from the payload bucket). */
export async function inlineImages(
  attachments: readonly StoredAttachment[] | undefined,
  store: AttachmentBytesStore | undefined,
): Promise<ContentPart[]> {
  const parts: ContentPart[] = [];
  if (!store) return parts;
  for (const attachment of attachments ?? []) {
    if (attachment.kind !== 'image' || attachment.key === null || !MODEL_IMAGE_TYPES.has(attachment.mime_type)) continue;
    const bytes = await store.get(attachment.key);
    parts.push({
      type: 'image_url',
      image_url: { url: `data:${attachment.mime_type};base64,${Buffer.from(bytes).toString('base64')}` },
    });
  }
  return parts;
}

/**
 * A message on the wire: attachments rendered into the text (never the `attachments` field,
 * which is ours), and with `images` a parts list (text first, then the images).
 */
export function wireMessage(message: TranscriptMessage, images: readonly ContentPart[] = []): WireMessage {
  const { attachments, ...rest } = message;
  if (!attachments) return rest;
  const text = userText(message);
  return { ...rest, content: images.length > 0 ? [{ type: 'text', text }, ...images] : text };
}

const DATA_URL = /^data:([^;,]+);base64,/;

/**
 * The messages with every inline image's data URL replaced by `data:<type>;base64,…(<n> bytes)`,
 * for hooks and traces (the request itself keeps them).
 */
export function withoutInlineImages(messages: readonly WireMessage[]): WireMessage[] {
  return messages.map((message) => {
    if (!Array.isArray(message.content)) return message;
    const content = message.content.map((part): ContentPart => {
      if (part.type !== 'image_url') return part;
      const match = DATA_URL.exec(part.image_url.url);
      if (!match) return part;
      const bytes = Math.floor(((part.image_url.url.length - match[0].length) * 3) / 4);
      return { type: 'image_url', image_url: { url: `data:${match[1]};base64,…(${bytes} bytes)` } };
    });
    return { ...message, content };
  });
}

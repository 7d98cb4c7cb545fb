import type { HookLogger } from '../../hooks/hook-logger.ts';
import { logExcerpt } from '../../secrets/log-excerpt.ts';
import type { StoredAttachment } from '../../store/stored-attachment.ts';
import type { TurnHooks } from '../turn/turn-hooks.ts';
import { ATTACHMENT_LIMITS } from './attachment-limits.ts';
import type { AttachmentBytesStore } from './take-in-attachments.ts';
import { errorText } from '../../errors/error-text.ts';

/** What `pre_llm_call` hooks get per attachment (docs/attachments.md). */
export interface HookAttachment {
  kind: StoredAttachment['kind'];
  mime_type: string;
  size: number;
  name: string;
  /** A presigned GET URL of the stored bytes, valid for `ATTACHMENT_LIMITS.urlSeconds`; null when there are none. */
  url: string | null;
}

/**
 * The `attachments` kwarg of `pre_llm_call` (and so of a shell hook's `extra`): kind, sniffed
 * MIME type, size, name and a short-lived URL of the bytes.
 *
 * @example
 * await attachmentsForHooks(stored, plane.attachments, logger);
 * // [{ kind: 'image', mime_type: 'image/png', size: 68, name: 'dot.png', url: 'http://…?X-Amz-Signature=…' }]
 */
export async function attachmentsForHooks(
  attachments: readonly StoredAttachment[],
  store: AttachmentBytesStore | undefined,
  logger: HookLogger,
): Promise<HookAttachment[]> {
  const out: HookAttachment[] = [];
  for (const attachment of attachments) {
    let url: string | null = null;
    if (attachment.key !== null && store) {
      try {
        url = await store.presignedUrl(attachment.key, ATTACHMENT_LIMITS.urlSeconds);
      } catch (error) {
        logger.warn(`attachment ${attachment.name}: no URL for the hooks: ${logExcerpt(errorText(error))}`);
      }
    }
    out.push({ kind: attachment.kind, mime_type: attachment.mime_type, size: attachment.size, name: attachment.name, url });
  }
  return out;
}

/** A refused message shows in `hookgate trace` as an `attachments` record beside the hook calls. */
export function recordAttachmentRefusal(hooks: TurnHooks, reason: string): void {
  hooks.trace.push({
    turn_id: hooks.meta.turn_id,
    at: new Date().toISOString(),
    hook: 'attachments',
    source: 'gateway',
    callback: '-',
    decision: `refused: ${reason}`,
    duration_ms: 0,
  });
}

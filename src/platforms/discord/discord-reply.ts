import type { ReplyTarget } from '../../messaging/message-event.ts';
import { postJson } from '../../messaging/platform-http.ts';
import { ReplyError } from '../../messaging/reply-error.ts';
import type { RetryingSend } from '../../messaging/reply-retry.ts';
import { splitText } from '../../messaging/split-text.ts';

/** What a Discord interaction follow-up needs (the gateway's `DiscordConfig` has it). */
export interface DiscordReplyOptions {
  /** Used when the reply target carries no `application_id`. */
  applicationId: string;
  apiBaseUrl: string;
}

const MAX_CHARS = 2000;

/**
 * A follow-up message on the deferred interaction: `POST /webhooks/{application_id}/{token}`.
 * The interaction token (valid 15 minutes) authorises it; no bot token is needed.
 */
export async function sendDiscordReply(
  config: DiscordReplyOptions,
  target: ReplyTarget,
  text: string,
  retry: RetryingSend,
): Promise<void> {
  const token = target.extra.interaction_token;
  if (!token) throw new ReplyError('discord', 'the reply target has no interaction token', 400);
  const applicationId = target.extra.application_id || config.applicationId;
  for (const piece of splitText(text, MAX_CHARS)) {
    await retry.run(() =>
      postJson('discord', `${config.apiBaseUrl}/webhooks/${applicationId}/${encodeURIComponent(token)}`, { content: piece }),
    );
  }
}

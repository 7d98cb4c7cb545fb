import type { ReplyTarget } from '../../messaging/message-event.ts';
import { postJson } from '../../messaging/platform-http.ts';
import { ReplyError } from '../../messaging/reply-error.ts';
import type { RetryingSend } from '../../messaging/reply-retry.ts';
import { splitText } from '../../messaging/split-text.ts';

/** What a Telegram reply needs (the gateway's `TelegramConfig` has it). */
export interface TelegramReplyOptions {
  botToken: string;
  apiBaseUrl: string;
}

/** Telegram's limit for one message's text. */
const MAX_CHARS = 4096;

/**
 * `sendMessage` per piece, each retried on its own (a piece that went through is never sent
 * again); in forum topics `message_thread_id` keeps the reply in its topic.
 */
export async function sendTelegramReply(
  config: TelegramReplyOptions,
  target: ReplyTarget,
  text: string,
  retry: RetryingSend,
): Promise<void> {
  for (const piece of splitText(text, MAX_CHARS)) {
    await retry.run(async () => {
      const answer = (await postJson('telegram', `${config.apiBaseUrl}/bot${config.botToken}/sendMessage`, {
        chat_id: target.chat_id,
        text: piece,
        ...(target.thread_id ? { message_thread_id: Number(target.thread_id) } : {}),
      })) as { ok?: boolean; description?: string };
      if (answer.ok === false) throw new ReplyError('telegram', answer.description ?? 'ok: false', 400);
    });
  }
}

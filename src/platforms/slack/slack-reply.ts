import type { ReplyTarget } from '../../messaging/message-event.ts';
import { postJson } from '../../messaging/platform-http.ts';
import { ReplyError } from '../../messaging/reply-error.ts';
import type { RetryingSend } from '../../messaging/reply-retry.ts';
import { splitText } from '../../messaging/split-text.ts';

/** What a Slack reply needs (the gateway's `SlackConfig` has it). */
export interface SlackReplyOptions {
  botToken: string;
  apiBaseUrl: string;
}

/** Slack truncates `text` beyond 40k characters; stay well below. */
const MAX_CHARS = 39_000;

/** `ok: false` errors that Slack documents as passing (its side failed or was busy): tried again. */
const TRANSIENT_ERRORS = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * `chat.postMessage` per piece, each retried on its own; Slack answers 200 with `ok: false`
 * on failure, so that is checked too.
 */
export async function sendSlackReply(
  config: SlackReplyOptions,
  target: ReplyTarget,
  text: string,
  retry: RetryingSend,
): Promise<void> {
  for (const piece of splitText(text, MAX_CHARS)) {
    await retry.run(async () => {
      const answer = (await postJson(
        'slack',
        `${config.apiBaseUrl}/chat.postMessage`,
        { channel: target.chat_id, text: piece, ...(target.thread_id ? { thread_ts: target.thread_id } : {}) },
        { authorization: `Bearer ${config.botToken}` },
      )) as { ok?: boolean; error?: string };
      if (answer.ok !== true) {
        const error = answer.error ?? 'ok is not true';
        throw new ReplyError('slack', error, TRANSIENT_ERRORS.has(error) ? 503 : 400);
      }
    });
  }
}

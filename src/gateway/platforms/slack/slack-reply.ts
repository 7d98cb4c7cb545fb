import type { SlackConfig } from '../../../config/gateway-config.ts';
import type { ReplyTarget } from '../../message-event.ts';
import { postJson } from '../../platform-http.ts';
import { ReplyError } from '../../reply-error.ts';
import { splitText } from '../../split-text.ts';

/** Slack truncates `text` beyond 40k characters; stay well below. */
const MAX_CHARS = 39_000;

/** `chat.postMessage`; Slack answers 200 with `ok: false` on failure, so that is checked too. */
export async function sendSlackReply(config: SlackConfig, target: ReplyTarget, text: string): Promise<void> {
  for (const piece of splitText(text, MAX_CHARS)) {
    const answer = (await postJson(
      'slack',
      `${config.apiBaseUrl}/chat.postMessage`,
      { channel: target.chat_id, text: piece, ...(target.thread_id ? { thread_ts: target.thread_id } : {}) },
      { authorization: `Bearer ${config.botToken}` },
    )) as { ok?: boolean; error?: string };
    if (answer.ok !== true) throw new ReplyError('slack', answer.error ?? 'ok is not true');
  }
}

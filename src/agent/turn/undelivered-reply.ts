import type { ReplyTarget } from '../../messaging/message-event.ts';
import { ReplyUndeliveredError } from '../../messaging/reply-retry.ts';
import type { TurnHooks } from './turn-hooks.ts';
import { errorText } from '../../errors/error-text.ts';

/** The gateway event published when a turn's reply could not be delivered (after every retry). */
export const REPLY_UNDELIVERED_EVENT = 'reply:undelivered';

/**
 * Keeps a reply that the platform never took instead of losing it: a trace record carrying
 * the text (`hookgate trace <turn_id>` prints it) and a `reply:undelivered` event on the
 * turn's observer events (`platform`, `chat_id`, `thread_id`, `session_id`, `turn_id`,
 * `text`, `error`, `attempts`) for gateway hooks and telemetry consumers to act on.
 * The reply target's `extra` (Discord's interaction token…) is left out: it is a credential.
 *
 * @example
 * await keepUndeliveredReply(hooks, state.reply, text, error);
 */
export async function keepUndeliveredReply(hooks: TurnHooks, target: ReplyTarget, text: string, error: unknown): Promise<void> {
  const message = errorText(error);
  const attempts = error instanceof ReplyUndeliveredError ? error.attempts : 1;
  hooks.trace.push({
    turn_id: hooks.meta.turn_id,
    at: new Date().toISOString(),
    hook: 'reply',
    source: 'platform',
    callback: `${target.platform}:${target.chat_id}${target.thread_id ? `:${target.thread_id}` : ''}`,
    decision: `undelivered: ${message}`,
    duration_ms: 0,
    text,
    reply_to: { platform: target.platform, chat_id: target.chat_id, thread_id: target.thread_id },
  });
  await hooks.observe(REPLY_UNDELIVERED_EVENT, {
    platform: target.platform,
    chat_id: target.chat_id,
    thread_id: target.thread_id,
    session_id: hooks.meta.session_id,
    turn_id: hooks.meta.turn_id,
    text,
    error: message,
    attempts,
  });
}

import { expect } from 'vitest';
import { until } from './until.ts';

/** One reply `hookgate dev`'s local platform kept for a chat. */
export interface LocalReply {
  text: string;
}

/**
 * The replies the local platform of the gateway at `baseUrl` sent to `chatId`, oldest first
 * (`GET /webhooks/local/messages`).
 *
 * @example
 * const replies = await localReplies(dev.url, 'c1');
 */
export async function localReplies(baseUrl: string, chatId: string): Promise<LocalReply[]> {
  return (await fetch(`${baseUrl}/webhooks/local/messages?chat_id=${encodeURIComponent(chatId)}`)).json() as Promise<
    LocalReply[]
  >;
}

/**
 * Says `text` in `chatId` on the local platform, as `userId` (u1 unless given), expects the
 * webhook's 202, then waits for the chat's next reply and answers its text.
 *
 * @example
 * expect(await chatLocally(dev.url, 'c1', 'run: echo hi')).toBe('hi\n');
 */
export async function chatLocally(
  baseUrl: string,
  chatId: string,
  text: string,
  options: { userId?: string; timeoutMs?: number } = {},
): Promise<string> {
  const before = (await localReplies(baseUrl, chatId)).length;
  const posted = await fetch(`${baseUrl}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chatId, user_id: options.userId ?? 'u1', text }),
  });
  expect(posted.status).toBe(202);
  return until(
    async () => {
      const now = await localReplies(baseUrl, chatId);
      return now.length > before ? now.at(-1)!.text : undefined;
    },
    `a reply in ${chatId}`,
    options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {},
  );
}

import { describe, expect, it } from 'vitest';
import { localAdapter } from '../../src/platforms/local/local-adapter.ts';

/**
 * A local post with a `message_id` is deduplicated per chat (docs/dev-server.md): the same
 * message id in the same chat is one delivery, and nothing else is.
 */
const deliveryIdOf = async (body: Record<string, unknown>) => {
  const verdict = await localAdapter(() => 'uuid').handle({
    method: 'POST',
    url: new URL('http://127.0.0.1:8787/webhooks/local'),
    headers: new Headers({ host: '127.0.0.1:8787', 'content-type': 'application/json' }),
    body: new TextEncoder().encode(JSON.stringify({ user_id: 'u', text: 'hi', ...body })),
  });
  if (verdict.kind !== 'deliver') throw new Error('expected a delivery');
  return verdict.deliveries[0]!.deliveryId;
};

describe('local delivery ids', () => {
  it('two chats whose ids and message ids join to the same text are two deliveries', async () => {
    const first = await deliveryIdOf({ chat_id: 'a:b', message_id: 'c' });
    const second = await deliveryIdOf({ chat_id: 'a', message_id: 'b:c' });
    expect(first).not.toBe(second);
    expect(await deliveryIdOf({ chat_id: 'a%3Ab', message_id: 'c' })).not.toBe(first);
  });

  it('the same chat and message id is the same delivery, and plain ids keep their form', async () => {
    expect(await deliveryIdOf({ chat_id: 'a:b', message_id: 'c' })).toBe(await deliveryIdOf({ chat_id: 'a:b', message_id: 'c' }));
    expect(await deliveryIdOf({ chat_id: 'c1', message_id: 'm:1' })).toBe('local:c1:m:1');
    expect(await deliveryIdOf({ chat_id: 'c1' })).toBe('local:uuid');
  });
});

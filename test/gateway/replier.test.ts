import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../src/config/gateway-config.ts';
import { createReplier } from '../../src/gateway/create-replier.ts';
import { ReplyError } from '../../src/gateway/reply-error.ts';
import type { LocalOutboxStore, OutboxMessage } from '../../src/store/local-outbox-store.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';

let fake: FakePlatforms;
beforeAll(async () => {
  fake = await startFakePlatforms();
});
afterAll(async () => {
  await fake?.close();
});

/** A unit-test outbox (the Dynamo one is covered with the emulators in the e2e and dispatch tests). */
const memoryOutbox = (): LocalOutboxStore & { items: Map<string, OutboxMessage[]> } => {
  const items = new Map<string, OutboxMessage[]>();
  return {
    items,
    async append(chatId, text, now = new Date()) {
      items.set(chatId, [...(items.get(chatId) ?? []), { text, at: now.toISOString() }]);
    },
    async list(chatId) {
      return items.get(chatId) ?? [];
    },
  };
};

const replierFor = (outbox = memoryOutbox()) =>
  createReplier(
    loadGatewayConfig(
      {
        TELEGRAM_BOT_TOKEN: '123:abc',
        TELEGRAM_SECRET_TOKEN: 's',
        TELEGRAM_API_BASE_URL: `${fake.url}/telegram/`,
        SLACK_SIGNING_SECRET: 's',
        SLACK_BOT_TOKEN: 'xoxb-9',
        SLACK_API_BASE_URL: `${fake.url}/slack`,
        DISCORD_PUBLIC_KEY: 'a'.repeat(64),
        DISCORD_APPLICATION_ID: '777',
        DISCORD_API_BASE_URL: `${fake.url}/discord`,
        WHATSAPP_APP_SECRET: 's',
        WHATSAPP_VERIFY_TOKEN: 'v',
        WHATSAPP_ACCESS_TOKEN: 'wa-token',
        WHATSAPP_PHONE_NUMBER_ID: '555',
        WHATSAPP_API_BASE_URL: `${fake.url}/whatsapp`,
        TEAMS_APP_ID: 'app',
        TEAMS_APP_PASSWORD: 'secret pw',
        TEAMS_TOKEN_URL: `${fake.url}/teams/token`,
      },
      { runtime: 'local' },
    ),
    { outbox },
  );

describe('createReplier', () => {
  it('Telegram: POST {base}/bot{token}/sendMessage with chat_id, text and the forum topic', async () => {
    await replierFor().send({ platform: 'telegram', chat_id: '-100', thread_id: '7', extra: {} }, 'hi');
    const [req] = fake.received('/telegram/');
    expect(req!.path).toBe('/telegram/bot123:abc/sendMessage');
    expect(req!.json).toEqual({ chat_id: '-100', text: 'hi', message_thread_id: 7 });
  });

  it('Telegram: splits texts over 4096 characters', async () => {
    const before = fake.received('/telegram/').length;
    await replierFor().send({ platform: 'telegram', chat_id: '1', thread_id: '', extra: {} }, 'x'.repeat(5000));
    const sent = fake.received('/telegram/').slice(before).map((r) => (r.json as { text: string }).text.length);
    expect(sent).toEqual([4096, 904]);
  });

  it('Slack: chat.postMessage with the bot token, in the thread', async () => {
    await replierFor().send({ platform: 'slack', chat_id: 'C1', thread_id: '1.5', extra: {} }, 'yo');
    const [req] = fake.received('/slack/');
    expect(req!.path).toBe('/slack/chat.postMessage');
    expect(req!.headers.authorization).toBe('Bearer xoxb-9');
    expect(req!.json).toEqual({ channel: 'C1', text: 'yo', thread_ts: '1.5' });
  });

  it('Discord: follow-up to /webhooks/{application_id}/{interaction token}', async () => {
    await replierFor().send({ platform: 'discord', chat_id: 'CH', thread_id: '', extra: { interaction_token: 'itok', application_id: '777' } }, 'answer');
    const [req] = fake.received('/discord/');
    expect(req!.path).toBe('/discord/webhooks/777/itok');
    expect(req!.json).toEqual({ content: 'answer' });
  });

  it('WhatsApp: messages endpoint of the phone number, bearer access token', async () => {
    await replierFor().send({ platform: 'whatsapp', chat_id: '4917', thread_id: '', extra: { phone_number_id: '555' } }, 'hallo');
    const [req] = fake.received('/whatsapp/');
    expect(req!.path).toBe('/whatsapp/555/messages');
    expect(req!.headers.authorization).toBe('Bearer wa-token');
    expect(req!.json).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '4917', type: 'text', text: { body: 'hallo' } });
  });

  it('Teams: client-credentials token once, then reply to the activity on its serviceUrl', async () => {
    const replier = replierFor();
    const target = { platform: 'teams', chat_id: 'a:conv/1', thread_id: '', extra: { service_url: `${fake.url}/svc/`, activity_id: 'act1' } };
    await replier.send(target, 'one');
    await replier.send(target, 'two');
    const tokens = fake.received('/teams/token');
    expect(tokens).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(tokens[0]!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: 'secret pw',
      scope: 'https://api.botframework.com/.default',
    });
    const replies = fake.received('/svc/');
    expect(replies.map((r) => r.path)).toEqual(['/svc/v3/conversations/a%3Aconv%2F1/activities/act1', '/svc/v3/conversations/a%3Aconv%2F1/activities/act1']);
    expect(replies[0]!.headers.authorization).toBe('Bearer fake-bot-token');
    expect(replies[1]!.json).toMatchObject({ type: 'message', text: 'two' });
  });

  it('local: appends to the outbox', async () => {
    const outbox = memoryOutbox();
    await replierFor(outbox).send({ platform: 'local', chat_id: 'c', thread_id: '', extra: {} }, 'hey');
    expect((await outbox.list('c')).map((m) => m.text)).toEqual(['hey']);
  });

  it('rejects with a retryable ReplyError on 5xx and a final one on 4xx or Slack ok:false', async () => {
    fake.failNext('/telegram/', 502);
    const error = await replierFor().send({ platform: 'telegram', chat_id: '1', thread_id: '', extra: {} }, 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyError);
    expect((error as ReplyError).retryable).toBe(true);
    fake.failNext('/slack/', 403);
    const denied = await replierFor().send({ platform: 'slack', chat_id: 'C', thread_id: '', extra: {} }, 'x').catch((e: unknown) => e);
    expect((denied as ReplyError).retryable).toBe(false);
    expect((denied as ReplyError).message).not.toContain('xoxb-9');
  });

  it('rejects for a platform that is not enabled', async () => {
    const replier = createReplier(loadGatewayConfig({}, { runtime: 'aws' }));
    await expect(replier.send({ platform: 'telegram', chat_id: '1', thread_id: '', extra: {} }, 'x')).rejects.toThrow(/not enabled/);
  });
});

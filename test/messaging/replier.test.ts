import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createReplier } from '../../src/platforms/create-replier.ts';
import { ReplyError } from '../../src/messaging/reply-error.ts';
import { ReplyUndeliveredError } from '../../src/messaging/reply-retry.ts';
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

/** The waits retries asked for, in order (recorded instead of slept: no test waits on a clock). */
let waits: number[] = [];
const RETRY = { attempts: 3, baseDelayMs: 40, maxDelayMs: 5_000 };

const replierFor = (outbox = memoryOutbox()) =>
  createReplier(
    loadDeploymentConfig(
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
    {
      outbox,
      retry: RETRY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
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
    const sent = fake
      .received('/telegram/')
      .slice(before)
      .map((r) => (r.json as { text: string }).text.length);
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
    await replierFor().send(
      { platform: 'discord', chat_id: 'CH', thread_id: '', extra: { interaction_token: 'itok', application_id: '777' } },
      'answer',
    );
    const [req] = fake.received('/discord/');
    expect(req!.path).toBe('/discord/webhooks/777/itok');
    expect(req!.json).toEqual({ content: 'answer' });
  });

  it('WhatsApp: messages endpoint of WHATSAPP_PHONE_NUMBER_ID, bearer access token', async () => {
    await replierFor().send({ platform: 'whatsapp', chat_id: '4917', thread_id: '', extra: {} }, 'hallo');
    const [req] = fake.received('/whatsapp/');
    expect(req!.path).toBe('/whatsapp/555/messages');
    expect(req!.headers.authorization).toBe('Bearer wa-token');
    expect(req!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '4917',
      type: 'text',
      text: { body: 'hallo' },
    });
  });

  it('Teams: client-credentials token once, then reply to the activity on its serviceUrl', async () => {
    const replier = replierFor();
    const target = {
      platform: 'teams',
      chat_id: 'a:conv/1',
      thread_id: '',
      extra: { service_url: `${fake.url}/svc/`, activity_id: 'act1' },
    };
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
    expect(replies.map((r) => r.path)).toEqual([
      '/svc/v3/conversations/a%3Aconv%2F1/activities/act1',
      '/svc/v3/conversations/a%3Aconv%2F1/activities/act1',
    ]);
    expect(replies[0]!.headers.authorization).toBe('Bearer fake-bot-token');
    expect(replies[1]!.json).toMatchObject({ type: 'message', text: 'two' });
  });

  it('local: appends to the outbox', async () => {
    const outbox = memoryOutbox();
    await replierFor(outbox).send({ platform: 'local', chat_id: 'c', thread_id: '', extra: {} }, 'hey');
    expect((await outbox.list('c')).map((m) => m.text)).toEqual(['hey']);
  });

  it('rejects with a retryable ReplyError on 5xx and a final one on 4xx or Slack ok:false', async () => {
    fake.failNext('/telegram/', 502, RETRY.attempts);
    const error = await replierFor()
      .send({ platform: 'telegram', chat_id: '1', thread_id: '', extra: {} }, 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyError);
    expect((error as ReplyError).retryable).toBe(true);
    fake.failNext('/slack/', 403);
    const denied = await replierFor()
      .send({ platform: 'slack', chat_id: 'C', thread_id: '', extra: {} }, 'x')
      .catch((e: unknown) => e);
    expect((denied as ReplyError).retryable).toBe(false);
    expect((denied as ReplyError).message).not.toContain('xoxb-9');
  });

  it('rejects for a platform that is not enabled', async () => {
    const replier = createReplier(loadDeploymentConfig({}, { runtime: 'aws' }));
    await expect(replier.send({ platform: 'telegram', chat_id: '1', thread_id: '', extra: {} }, 'x')).rejects.toThrow(
      /not enabled/,
    );
  });
});

describe('createReplier: retries', () => {
  const tg = { platform: 'telegram', chat_id: '77', thread_id: '', extra: {} };
  const sentTexts = (prefix: string, from: number) =>
    fake
      .received(prefix)
      .slice(from)
      .map((r) => r.json as Record<string, unknown>);
  beforeEach(() => {
    waits = [];
  });

  it('Telegram 429: waits parameters.retry_after, then delivers once', async () => {
    const before = fake.received('/telegram/').length;
    fake.failNext('/telegram/', 429, 1, { retryAfter: 2, retryAfterIn: 'telegram' });
    await replierFor().send(tg, 'after the pause');
    expect(waits).toEqual([2000]);
    expect(sentTexts('/telegram/', before).map((b) => b.text)).toEqual(['after the pause', 'after the pause']);
  });

  it('Slack 429 and Discord 429: wait the Retry-After header', async () => {
    fake.failNext('/slack/', 429, 1, { retryAfter: 1 });
    await replierFor().send({ platform: 'slack', chat_id: 'C9', thread_id: '', extra: {} }, 'slack text');
    fake.failNext('/discord/', 429, 1, {
      retryAfter: 3,
      body: { message: 'You are being rate limited.', retry_after: 2.5, global: false },
    });
    await replierFor().send(
      { platform: 'discord', chat_id: 'CH', thread_id: '', extra: { interaction_token: 'rt', application_id: '777' } },
      'discord text',
    );
    expect(waits).toEqual([1000, 3000]);
  });

  it('Slack ok:false ratelimited/internal_error is retried; other ok:false errors are not', async () => {
    const before = fake.received('/slack/').length;
    fake.failNext('/slack/', 200, 1, { body: { ok: false, error: 'internal_error' } });
    await replierFor().send({ platform: 'slack', chat_id: 'C8', thread_id: '', extra: {} }, 'x');
    expect(fake.received('/slack/').length - before).toBe(2);
    fake.failNext('/slack/', 200, 1, { body: { ok: false, error: 'channel_not_found' } });
    const error = await replierFor()
      .send({ platform: 'slack', chat_id: 'C8', thread_id: '', extra: {} }, 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyUndeliveredError);
    expect((error as ReplyUndeliveredError).attempts).toBe(1);
    expect(fake.received('/slack/').length - before).toBe(3);
  });

  it('5xx and a dropped connection: backs off (bounded, growing) and delivers', async () => {
    const before = fake.received('/whatsapp/').length;
    fake.dropNext('/whatsapp/', 1);
    fake.failNext('/whatsapp/', 503, 1);
    await replierFor().send({ platform: 'whatsapp', chat_id: '4917', thread_id: '', extra: {} }, 'hallo');
    expect(fake.received('/whatsapp/').length - before).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThanOrEqual(RETRY.baseDelayMs);
    expect(waits[1]).toBeLessThanOrEqual(RETRY.baseDelayMs * 2);
  });

  it('a split reply resumes at the piece that failed: delivered pieces are not sent again', async () => {
    const before = fake.received('/telegram/').length;
    const text = `${'a'.repeat(4096)}${'b'.repeat(904)}`;
    fake.failNext('/telegram/', 502, 1, { after: 1 }); // the second piece's first try
    await replierFor().send(tg, text);
    expect(sentTexts('/telegram/', before).map((b) => String(b.text)[0])).toEqual(['a', 'b', 'b']);
  });

  it('gives up after the last try with ReplyUndeliveredError, at once on 4xx, and when asked to wait longer than the bound', async () => {
    fake.failNext('/telegram/', 500, RETRY.attempts);
    const exhausted = await replierFor()
      .send(tg, 'lost?')
      .catch((e: unknown) => e);
    expect(exhausted).toBeInstanceOf(ReplyUndeliveredError);
    expect((exhausted as ReplyUndeliveredError).attempts).toBe(3);
    expect((exhausted as Error).message).toMatch(/HTTP 500.*after 3 tries/);
    expect((exhausted as Error).message).not.toContain('123:abc');

    const before = fake.received('/telegram/').length;
    fake.failNext('/telegram/', 403, 1);
    const forbidden = await replierFor()
      .send(tg, 'x')
      .catch((e: unknown) => e);
    expect((forbidden as ReplyUndeliveredError).attempts).toBe(1);
    expect(fake.received('/telegram/').length - before).toBe(1);

    waits = [];
    fake.failNext('/telegram/', 429, 1, { retryAfter: 3600, retryAfterIn: 'telegram' });
    const tooLong = await replierFor()
      .send(tg, 'x')
      .catch((e: unknown) => e);
    expect((tooLong as ReplyUndeliveredError).attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { until } from '../support/until.ts';

const SECRET_TOKEN = 'console-undelivered';
let home: string;
let dev: DevRuntime;
let fake: FakePlatforms;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-console-undelivered-'));
  fake = await startFakePlatforms();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TELEGRAM_BOT_TOKEN: '42:console',
    TELEGRAM_SECRET_TOKEN: SECRET_TOKEN,
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    HOOKGATE_REPLY_ATTEMPTS: '1',
    HOOKGATE_REPLY_BACKOFF_MS: '1',
    HOOKGATE_LOG_LEVEL: 'silent',
  };
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_ALLOWED_USERS;
  dev = await startDevRuntime({
    home,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {} }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});

afterAll(async () => {
  await dev?.stop();
  await fake?.close();
  await rm(home, { recursive: true, force: true });
});

interface Listed {
  id: string;
  platform: string;
  chat_id: string;
  turn_id: string;
  at: string;
  error: string;
  excerpt: string;
  delivered_at: string | null;
  retries: number;
}

const api = (path: string, init?: RequestInit) => fetch(`${dev.url}/console/api/${path}`, init);
const listed = async () => (await (await api('undelivered')).json()) as Listed[];
const retry = (id: string) =>
  api('undelivered/retry', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hookgate-console': '1' },
    body: JSON.stringify({ id }),
  });

/**
 * Opens the console's event stream and waits for its `hello` (subscribed); the returned
 * function reads on until an `undelivered` event arrives and resolves with its data.
 */
async function subscribe(signal: AbortSignal): Promise<() => Promise<{ platform: string; chat_id: string }>> {
  const res = await fetch(`${dev.url}/console/events`, { signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const readUntil = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const match = pattern.exec(buffer);
      if (match) return match;
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
  };
  await readUntil(/event: hello\n/);
  return async () =>
    JSON.parse((await readUntil(/event: undelivered\ndata: (.*)\n/))[1]!) as { platform: string; chat_id: string };
}

describe('console: undelivered replies', () => {
  it('lists a reply the platform refused, announces it on the event stream, and retries it through the gateway replier', async () => {
    const stream = new AbortController();
    const announced = (await subscribe(stream.signal))();
    announced.catch(() => {});

    // Telegram's API refuses every send of this turn's reply (one attempt configured).
    fake.failNext('/telegram/', 500, 1);
    const secret = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';
    const update = {
      update_id: 9001,
      message: { message_id: 1, from: { id: 77 }, chat: { id: 77, type: 'private' }, text: `keep this ${secret}` },
    };
    const accepted = await fetch(`${dev.url}/webhooks/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET_TOKEN },
      body: JSON.stringify(update),
    });
    expect(accepted.status).toBe(200);

    let replies: Listed[] = [];
    await until(async () => (replies = await listed()).length === 1, 'the undelivered reply in the console');
    const [reply] = replies;
    expect(reply).toMatchObject({ platform: 'telegram', chat_id: '77', delivered_at: null, retries: 0 });
    expect(reply!.error).toMatch(/HTTP 500/);
    // The stand-in model echoes the message; the excerpt is redacted.
    expect(reply!.excerpt).toContain('You said: keep this');
    expect(reply!.excerpt).not.toContain(secret);
    expect(await announced).toMatchObject({ platform: 'telegram', chat_id: '77' });
    stream.abort();

    // The timeline of that turn shows the kept reply too.
    const timeline = (await (await api(`turns/${encodeURIComponent(reply!.turn_id)}`)).json()) as {
      hook: string;
      decision: string;
    }[];
    expect(timeline.find((r) => r.hook === 'reply')?.decision).toMatch(/^undelivered: /);

    // The platform still fails (a permanent 403: one try): the retry says so and the reply stays listed, with the new error.
    fake.failNext('/telegram/', 403, 1, {
      body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
    });
    const failed = await retry(reply!.id);
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: string }).error).toMatch(/blocked/);
    expect(await listed()).toMatchObject([{ id: reply!.id, delivered_at: null, retries: 1 }]);

    // Now it takes it: sent once to the chat, marked delivered, and not sent a second time.
    const before = fake.received('/telegram/').length;
    const ok = await retry(reply!.id);
    expect(ok.status).toBe(200);
    const sent = fake.received('/telegram/').slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.json).toMatchObject({ chat_id: '77' });
    expect((sent[0]!.json as { text: string }).text).toContain('You said: keep this');
    expect((sent[0]!.json as { text: string }).text).not.toContain(secret);
    const [after] = await listed();
    expect(after).toMatchObject({ id: reply!.id, retries: 2 });
    expect(after!.delivered_at).toEqual(expect.any(String));
    expect((await retry(reply!.id)).status).toBe(409);
    expect(fake.received('/telegram/').slice(before)).toHaveLength(1);
  });

  it('refuses a malformed or unknown id, and a retry without the console header', async () => {
    expect((await retry('not an id')).status).toBe(400);
    expect((await retry('2026-01-01T00:00:00.000Z#nope#x#000000')).status).toBe(404);
    const bare = await api('undelivered/retry', { method: 'POST', body: '{"id":"x"}' });
    expect(bare.status).toBe(403);
  });
});

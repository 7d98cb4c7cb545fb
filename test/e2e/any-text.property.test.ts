import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { splitText } from '../../src/messaging/split-text.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { startFakePlatforms, type FakePlatforms, type RecordedRequest } from '../support/fake-platforms/fake-platform-server.ts';
import { discordHeaders, discordKeys, slackHeaders, whatsAppHeaders } from '../support/fake-platforms/signed-requests.ts';
import { fakePlatformEnv } from '../support/fake-platforms/platform-env.ts';
import {
  discordSayInteraction,
  slackMessageEvent,
  teamsMessageActivity,
  telegramTextUpdate,
  whatsAppTextMessage,
} from '../support/fake-platforms/inbound-bodies.ts';
import { enable, plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';

/**
 * Issue #14 item 1, as a property: any chat text — astral characters, controls, U+FFFE and
 * U+FFFF, lone surrogates, 4,000 characters — sent through every platform adapter of a
 * running `hookgate dev` (the emulators' SQS/SNS/DynamoDB, the stand-in model, the platform
 * APIs faked on the wire) comes back exactly in the stand-in's reply ("You said: …", cut
 * where the platform's reply limit cuts it), or is refused with a clear 400 when it is not
 * well-formed Unicode (a lone surrogate, which no platform sends and no UTF-8 store keeps).
 * The same text as an observer event through SNS reaches the observer hook exactly — lone
 * surrogates included, as JSON can carry them.
 */
const keys = discordKeys();
let fake: FakePlatforms;
let home: TempHome;
let dev: DevRuntime;
let seq = 0;

/** Each platform's reply limit (its `*-reply.ts`). */
const REPLY_LIMITS = {
  telegram: 4096,
  slack: 39_000,
  discord: 2000,
  whatsapp: 4096,
  teams: 28_000,
  local: Number.POSITIVE_INFINITY,
} as const;
type Platform = keyof typeof REPLY_LIMITS;

beforeAll(async () => {
  fake = await startFakePlatforms();
  home = await tempHome({
    'config.yaml': enable('probe'),
    ...plugin(
      'probe',
      `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'observed.jsonl');
      ctx.register_hook('post_tool_call', (k: any) => { if (k.tool_name === 'probe') appendFileSync(file, JSON.stringify({ probe: k.probe, result: k.result }) + '\\n'); });`,
    ),
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_HOME: home.path,
    HOOKGATE_LOG_LEVEL: 'warn',
    ...fakePlatformEnv(fake.url, keys.publicKeyHex),
  };
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_ALLOWED_USERS;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
}, 60_000);
afterAll(async () => {
  await dev?.stop();
  await fake?.close();
  await home?.remove();
});

/** One message on one platform, signed as the platform signs it, and how to find its replies. */
interface Sent {
  status: number;
  /** The text the adapter hands on (Discord: the slash command's text). */
  said: string;
  replies: () => Promise<string[]>;
}

const byPath = (match: (r: RecordedRequest) => boolean, text: (r: RecordedRequest) => string) => async () =>
  fake.requests.filter(match).map(text);
const json = (r: RecordedRequest) => r.json as Record<string, any>;

async function send(platform: Platform, text: string): Promise<Sent> {
  const n = ++seq;
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${dev.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }).then(
      (r) => r.status,
    );
  switch (platform) {
    case 'telegram': {
      const chat = 1_000_000 + n;
      const body = telegramTextUpdate({ updateId: n, chatId: chat, text });
      return {
        status: await post('/webhooks/telegram', body, { 'x-telegram-bot-api-secret-token': 'tg-secret' }),
        said: text,
        replies: byPath(
          (r) => r.path.startsWith('/telegram/') && String(json(r).chat_id) === String(chat),
          (r) => json(r).text,
        ),
      };
    }
    case 'slack': {
      const channel = `C${n}`;
      const body = slackMessageEvent({ eventId: `Ev${n}`, channel, ts: `${n}.1`, text });
      return {
        status: await post('/webhooks/slack', body, slackHeaders('slack-secret', body)),
        said: text,
        replies: byPath(
          (r) => r.path.startsWith('/slack/') && json(r).channel === channel,
          (r) => json(r).text,
        ),
      };
    }
    case 'discord': {
      const token = `tok-${n}`;
      const body = discordSayInteraction({ id: `I${n}`, token, channelId: `CH${n}`, text });
      return {
        status: await post('/webhooks/discord', body, discordHeaders(keys, body)),
        said: `/say ${text}`,
        replies: byPath(
          (r) => r.path.startsWith(`/discord/webhooks/999/${token}`),
          (r) => json(r).content,
        ),
      };
    }
    case 'whatsapp': {
      const from = `49${n}`;
      const body = whatsAppTextMessage({ from, id: `wamid.${n}`, text });
      return {
        status: await post('/webhooks/whatsapp', body, whatsAppHeaders('wa-secret', body)),
        said: text,
        replies: byPath(
          (r) => r.path.startsWith('/whatsapp/') && json(r).to === from,
          (r) => json(r).text.body,
        ),
      };
    }
    case 'teams': {
      const serviceUrl = `${fake.url}/teams-service/`;
      const body = teamsMessageActivity({ id: `A${n}`, serviceUrl, conversation: `a:conv${n}`, text });
      const token = await fake.teamsToken({ serviceUrl });
      // A Teams `<at>…</at>` is a mention, markup rather than words: the adapter drops it (teams-adapter.ts).
      const said = text.replace(/<at>[^<]*<\/at>\s*/g, '');
      return {
        status: await post('/webhooks/teams', body, { authorization: `Bearer ${token}` }),
        said,
        replies: byPath(
          (r) => r.path.endsWith(`/activities/A${n}`),
          (r) => json(r).text,
        ),
      };
    }
    case 'local': {
      const chat = `p${n}`;
      const status = await post('/webhooks/local', JSON.stringify({ chat_id: chat, user_id: 'u1', text }), {});
      const replies = async () =>
        ((await (await fetch(`${dev.url}/webhooks/local/messages?chat_id=${chat}`)).json()) as { text: string }[]).map(
          (m) => m.text,
        );
      return { status, said: text, replies };
    }
  }
}

const ACK: Record<Platform, number> = { telegram: 200, slack: 200, discord: 200, whatsapp: 200, teams: 200, local: 202 };
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Sends `core` (wrapped so that no platform trims it and no phrase or command is triggered) everywhere. */
async function roundTrip(core: string): Promise<void> {
  const text = `«${core}»`;
  const platforms = Object.keys(REPLY_LIMITS) as Platform[];
  const sent = await Promise.all(platforms.map((p) => send(p, text)));
  if (LONE_SURROGATE.test(text)) {
    expect(sent.map((s) => s.status)).toEqual(platforms.map(() => 400));
    return;
  }
  expect(sent.map((s) => s.status)).toEqual(platforms.map((p) => ACK[p]));
  await Promise.all(
    sent.map(async (s, i) => {
      const expected = splitText(`You said: ${s.said}`, REPLY_LIMITS[platforms[i]!]);
      let got: string[] = [];
      await until(
        async () => (got = await s.replies()).length >= expected.length,
        `${expected.length} reply part(s) on ${platforms[i]}`,
        { everyMs: 50, timeoutMs: 30_000 },
      ).catch(() => {});
      // On a timeout, the comparison shows what did arrive.
      expect({ platform: platforms[i], got }).toEqual({ platform: platforms[i], got: expected });
    }),
  );
}

async function observe(core: string): Promise<void> {
  const probe = ++seq;
  const res = await fetch(`${dev.url}/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${dev.apiToken}` },
    body: JSON.stringify({ type: 'post_tool_call', payload: { tool_name: 'probe', probe, result: core } }),
  });
  expect(res.status).toBe(202);
  const seen = await until(
    async () => {
      // Only whole lines: the hook may be half-way through appending a long one (an 8 KB line is not one atomic write).
      const text = await readFile(join(home.path, 'observed.jsonl'), 'utf8').catch(() => '');
      const lines = text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(Boolean);
      return lines.map((line) => JSON.parse(line) as { probe: number; result: string }).find((o) => o.probe === probe);
    },
    `the observer to see probe ${probe}`,
    { everyMs: 50, timeoutMs: 30_000 },
  );
  expect(seen.result === core).toBe(true);
}

/** Characters the transports are picky about, mixed into arbitrary code points. */
const tricky = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u000e',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '😀',
  '👩‍👩‍👧',
  '\u{10ffff}',
  '\r\n',
  '\t',
  '  ',
  '"',
  '\\',
  '<at>x</at>',
);
const chatText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 20 })), { maxLength: 30 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 3_900, maxLength: 4_000 }) },
);
const EXAMPLES = [
  'hi 😀',
  '\u0000\u0008\u000b\u000c\u000e\u001f',
  '\ufffe\uffff',
  'a\ud800b',
  '😀'.repeat(2_000),
  'x'.repeat(4_000),
];

describe('any chat text through every platform adapter and through SNS (issue #14 item 1)', () => {
  it('comes back exactly in the stand-in’s reply, or gets 400 when it is not well-formed Unicode', async () => {
    await fc.assert(fc.asyncProperty(chatText, roundTrip), {
      numRuns: 12,
      examples: EXAMPLES.map((e) => [e]),
      endOnFailure: true,
    });
  }, 600_000);

  it('reaches an observer hook exactly as an observer event through SNS', async () => {
    await fc.assert(fc.asyncProperty(chatText, observe), { numRuns: 12, examples: EXAMPLES.map((e) => [e]), endOnFailure: true });
  }, 600_000);
});

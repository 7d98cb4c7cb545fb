import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAws } from '../support/local-aws.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { discordHeaders, discordKeys, slackHeaders, whatsAppHeaders } from '../support/fake-platforms/signed-requests.ts';
import { fakePlatformEnv } from '../support/fake-platforms/platform-env.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';
import { recordingEngine, type RecordingEngine } from './support/recording-engine.ts';

const keys = discordKeys();
let aws: RunningEmulators;
let fake: FakePlatforms;
let engine: RecordingEngine;
let gw: GatewayHarness;

const env = (fakeUrl: string): NodeJS.ProcessEnv => fakePlatformEnv(fakeUrl, keys.publicKeyHex);

beforeAll(async () => {
  [aws, fake] = await Promise.all([startTestAws(), startFakePlatforms()]);
});
afterAll(async () => {
  gw?.plane.destroy();
  await Promise.all([aws?.stop(), fake?.close()]);
});
beforeEach(async () => {
  gw?.plane.destroy();
  engine = recordingEngine();
  gw = gatewayHarness(aws, env(fake.url), engine);
  await gw.drainTurns();
});

let seq = Date.now();
const telegramUpdate = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    update_id: ++seq,
    message: {
      message_id: seq,
      from: { id: 42, is_bot: false, first_name: 'Ann' },
      chat: { id: -100, type: 'group' },
      text,
      ...extra,
    },
  });
const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'tg-secret' };

describe('telegram', () => {
  it('enqueues a text message as one turn in the chat’s FIFO group', async () => {
    const res = await gw.request('/webhooks/telegram', { body: telegramUpdate('hello'), headers: tgHeaders });
    expect(res.status).toBe(200);
    const [turn, ...rest] = await gw.drainTurns();
    expect(rest).toEqual([]);
    expect(turn).toMatchObject({
      kind: 'message',
      session_key: 'telegram:-100',
      event: { text: 'hello', source: { platform: 'telegram', chat_id: '-100', user_id: '42', chat_type: 'group' } },
    });
    expect(turn!.delivery_id).toBe(`telegram:${seq}`);
  });

  it('refuses a wrong secret token with 401 and enqueues nothing', async () => {
    const res = await gw.request('/webhooks/telegram', {
      body: telegramUpdate('x'),
      headers: { ...tgHeaders, 'x-telegram-bot-api-secret-token': 'nope' },
    });
    expect(res.status).toBe(401);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('acknowledges edited messages and non-message updates without a turn', async () => {
    const edited = JSON.stringify({
      update_id: ++seq,
      edited_message: { message_id: 1, chat: { id: 1, type: 'private' }, text: 'x' },
    });
    const callback = JSON.stringify({ update_id: ++seq, callback_query: { id: 'q' } });
    for (const body of [edited, callback])
      expect((await gw.request('/webhooks/telegram', { body, headers: tgHeaders })).status).toBe(200);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('enqueues one turn when the same update arrives 5 times concurrently', async () => {
    const body = telegramUpdate('once');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => gw.request('/webhooks/telegram', { body, headers: tgHeaders })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await gw.drainTurns()).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{nope'],
    ['no update_id', JSON.stringify({ message: {} })],
    ['wrong types', JSON.stringify({ update_id: 'x' })],
    ['an array', '[]'],
  ])('answers 400 to a malformed body (%s) with a message, not a stack', async (_label, body) => {
    const res = await gw.request('/webhooks/telegram', { body, headers: tgHeaders });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: string };
    expect(json.error).toMatch(/telegram update/);
    expect(json.error).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('slack', () => {
  const slackEvent = (eventId: string, event: Record<string, unknown>) =>
    JSON.stringify({
      type: 'event_callback',
      event_id: eventId,
      event: { type: 'message', channel: 'C1', channel_type: 'channel', ts: '1700000000.1', ...event },
    });

  it('answers url_verification with the challenge', async () => {
    const body = JSON.stringify({ type: 'url_verification', token: 't', challenge: 'abc123' });
    const res = await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'abc123' });
  });

  it('enqueues a user message once even when Slack retries it: a retry while the first try may still be in hand is told to come back (503), one the instance settled or a later one is acknowledged', async () => {
    let clock = Date.now();
    gw.plane.destroy();
    gw = gatewayHarness(aws, env(fake.url), engine, { now: () => new Date(clock) });
    // Another instance of the gateway on the same table: it cannot tell whether the first try is done.
    const other = gatewayHarness(aws, env(fake.url), engine, { now: () => new Date(clock) });
    const body = slackEvent('Ev1', { user: 'U1', text: 'hi there', thread_ts: '1699.5' });
    const retryOf = (n: number) => ({
      ...slackHeaders('slack-secret', body),
      'x-slack-retry-num': String(n),
      'x-slack-retry-reason': 'http_timeout',
    });
    const first = await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });
    clock += 3_000; // Slack's first retry: no answer within 3 s
    const early = await other.request('/webhooks/slack', { body, headers: retryOf(1) });
    const settledHere = await gw.request('/webhooks/slack', { body, headers: retryOf(1) });
    clock += 60_000; // its next, a minute later
    const later = await other.request('/webhooks/slack', { body, headers: retryOf(2) });
    other.plane.destroy();
    expect([first.status, early.status, settledHere.status, later.status]).toEqual([200, 503, 200, 200]);
    // A retry number Slack never sends is not a retry: the duplicate is acknowledged at once.
    clock -= 60_000;
    const odd = await gw.request('/webhooks/slack', {
      body,
      headers: { ...slackHeaders('slack-secret', body), 'x-slack-retry-num': 'abc' },
    });
    expect(odd.status).toBe(200);
    // Without the retry header (the app_mention of the same message), a duplicate is acknowledged at once.
    const mention = slackEvent('Ev1b', { type: 'app_mention', user: 'U1', text: 'hi there', thread_ts: '1699.5' });
    expect((await gw.request('/webhooks/slack', { body: mention, headers: slackHeaders('slack-secret', mention) })).status).toBe(
      200,
    );
    const turns = await gw.drainTurns();
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      session_key: 'slack:C1:1699.5',
      event: { text: 'hi there', reply: { chat_id: 'C1', thread_id: '1699.5' } },
    });
  });

  it('ignores messages from bots, its own included, and edits', async () => {
    for (const [id, event] of [
      ['Ev2', { bot_id: 'B1', text: 'from a bot', user: 'U2' }],
      ['Ev3', { subtype: 'bot_message', text: 'bot', bot_id: 'B9' }],
      ['Ev4', { subtype: 'message_changed', message: {} }],
    ] as const) {
      const body = slackEvent(id, event);
      expect((await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) })).status).toBe(200);
    }
    expect(await gw.drainTurns()).toEqual([]);
  });

  it("starts turns for a person's text of every subtype that is one (/me, a thread reply sent to the channel), not for a join", async () => {
    for (const [id, event] of [
      ['EvMe', { subtype: 'me_message', user: 'U1', text: 'waves', ts: '1700000001.1' }],
      ['EvBroadcast', { subtype: 'thread_broadcast', user: 'U1', text: 'to all', ts: '1700000001.2', thread_ts: '1699.5' }],
      ['EvJoin', { subtype: 'channel_join', user: 'U1', text: '<@U1> has joined the channel', ts: '1700000001.3' }],
    ] as const) {
      const body = slackEvent(id, event);
      expect((await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) })).status).toBe(200);
    }
    expect((await gw.drainTurns()).map((t) => (t as { event: { text: string } }).event.text)).toEqual(['waves', 'to all']);
  });

  it('acknowledges verified events of other shapes, whose user or channel is an object, and starts nothing', async () => {
    const events = [
      { type: 'channel_created', channel: { id: 'C9', name: 'new', created: 1700000000, creator: 'U1' } },
      { type: 'channel_rename', channel: { id: 'C9', name: 'renamed', created: 1700000000 } },
      { type: 'team_join', user: { id: 'U9', name: 'zoe', profile: {} } },
      { type: 'user_change', user: { id: 'U9', name: 'zoe', deleted: false } },
      { type: 'reaction_added', user: 'U1', reaction: 'tada', item: { type: 'message', channel: 'C1', ts: '1.2' } },
    ];
    for (const [i, event] of events.entries()) {
      const body = JSON.stringify({ type: 'event_callback', event_id: `EvShape${i}`, event });
      const res = await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });
      expect([event.type, res.status]).toEqual([event.type, 200]);
    }
    // A message event is still checked: Slack never sends one whose text is not a string.
    const odd = slackEvent('EvShape9', { user: 'U1', text: { not: 'text' } });
    expect((await gw.request('/webhooks/slack', { body: odd, headers: slackHeaders('slack-secret', odd) })).status).toBe(400);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('refuses a wrong signature and a stale timestamp with 401', async () => {
    const body = slackEvent('Ev5', { user: 'U1', text: 'x' });
    const wrong = await gw.request('/webhooks/slack', { body, headers: slackHeaders('other-secret', body) });
    const stale = await gw.request('/webhooks/slack', {
      body,
      headers: slackHeaders('slack-secret', body, Math.floor(Date.now() / 1000) - 301),
    });
    expect([wrong.status, stale.status]).toEqual([401, 401]);
    expect(((await stale.json()) as { error: string }).error).toMatch(/5 minutes/);
    expect(await gw.drainTurns()).toEqual([]);
  });
});

describe('discord', () => {
  const interaction = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      application_id: '999',
      type: 2,
      token: `tok-${id}`,
      guild_id: 'G1',
      channel_id: 'CH1',
      member: { user: { id: 'U7', username: 'ann' } },
      data: {
        name: 'ask',
        options: [
          { name: 'question', type: 3, value: 'why is the sky blue' },
          { name: 'n', type: 4, value: 3 },
        ],
      },
      ...extra,
    });

  it('answers a signed PING with PONG, a minimal one ({"type":1}) too', async () => {
    for (const ping of [{ id: 'p', application_id: '999', type: 1, token: 't' }, { type: 1 }]) {
      const body = JSON.stringify(ping);
      const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ type: 1 });
    }
    // A command still needs its id and token: without them it could never be answered.
    const body = JSON.stringify({ type: 2, data: { name: 'ask' } });
    const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
    expect(res.status).toBe(400);
  });

  it('refuses a bad signature with 401 (Discord probes this)', async () => {
    const body = JSON.stringify({ id: 'p', application_id: '999', type: 1, token: 't' });
    const other = discordKeys();
    expect((await gw.request('/webhooks/discord', { body, headers: discordHeaders(other, body) })).status).toBe(401);
    expect((await gw.request('/webhooks/discord', { body, headers: { 'content-type': 'application/json' } })).status).toBe(401);
  });

  it('refuses a correctly signed request whose timestamp is more than 5 minutes away: a captured one sent again', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const [id, at] of [
      ['old', '1600000000'],
      ['stale', String(now - 301)],
      ['ahead', String(now + 301)],
    ]) {
      const body = interaction(`replay-${id}`);
      const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body, at) });
      expect([id, res.status]).toEqual([id, 401]);
      expect(((await res.json()) as { error: string }).error).toMatch(/5 minutes/);
    }
    for (const at of [`${now}.5`, 'abc']) {
      const body = interaction(`replay-${at}`);
      const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body, at) });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/X-Signature-Timestamp is not a Unix time/);
    }
    const fresh = interaction('replay-fresh');
    const res = await gw.request('/webhooks/discord', { body: fresh, headers: discordHeaders(keys, fresh, String(now - 290)) });
    expect(res.status).toBe(200);
    expect(await gw.drainTurns()).toHaveLength(1);
  });

  it('400 naming the interaction type for a component or a modal, which hookgate does not take', async () => {
    for (const type of [3, 5]) {
      const body = JSON.stringify({
        id: `component-${type}`,
        application_id: '999',
        type,
        token: 'tok',
        channel_id: 'CH1',
        member: { user: { id: 'U7', username: 'ann' } },
        data: { custom_id: 'ok-button', component_type: 2 },
      });
      const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`interaction type ${type} is not supported`));
    }
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('defers a slash command and enqueues "/<name> <values…>" with the interaction token', async () => {
    const body = interaction('I1');
    const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
    expect(await res.json()).toEqual({ type: 5 });
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      delivery_id: 'discord:I1',
      event: {
        text: '/ask why is the sky blue 3',
        source: { user_id: 'U7', chat_id: 'CH1', chat_type: 'group' },
        reply: { extra: { interaction_token: 'tok-I1' } },
      },
    });
  });

  it('400, not 503, for a signed interaction nested deeper than any payload (its options thousands of levels deep)', async () => {
    // Written as text: a value this deep is past what JSON.stringify itself can walk.
    const deep = `${'{"name":"g","type":2,"options":['.repeat(3000)}{"name":"leaf","type":3,"value":"x"}${']}'.repeat(3000)}`;
    const body = interaction('I-deep', { data: { name: 'ask' } }).replace('"name":"ask"', `"name":"ask","options":[${deep}]`);
    const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/nests arrays\/objects more than 100 levels deep/) });
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('400 for an interaction token its follow-up URL could not carry: none, a lone surrogate, one past 2,048 bytes', async () => {
    const refusals = [];
    for (const [id, token] of [
      ['I-t1', ''],
      ['I-t2', 't\ud800'],
      ['I-t3', 't'.repeat(2049)],
    ] as const) {
      const body = interaction(id, { token });
      const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
      refusals.push([res.status, ((await res.json()) as { error: string }).error]);
    }
    expect(refusals).toEqual([
      [400, expect.stringMatching(/^discord interaction: .*token/s)],
      [400, expect.stringMatching(/^interaction_token of the reply target is not well-formed Unicode/)],
      [400, 'interaction_token of the reply target is 2049 bytes; the limit is 2048 bytes (UTF-8)'],
    ]);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('answers a gateway command inline (type 4) instead of deferring', async () => {
    const body = interaction('I2', { data: { name: 'help' } });
    const res = await gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
    const json = (await res.json()) as { type: number; data: { content: string } };
    expect(json.type).toBe(4);
    expect(json.data.content).toMatch(/\/new/);
    expect(fake.received('/discord/')).toEqual([]);
  });
});

describe('whatsapp', () => {
  it('answers the verification challenge only with the right verify token', async () => {
    const ok = await gw.request('/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=wa-verify&hub.challenge=1158201444', {
      method: 'GET',
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const bad = await gw.request('/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1', {
      method: 'GET',
    });
    expect(bad.status).toBe(403);
  });

  it('enqueues every text message of a batched notification, acks statuses, dedups by message id', async () => {
    const change = (messages: unknown[], statuses: unknown[] = []) => ({
      field: 'messages',
      value: {
        messaging_product: 'whatsapp',
        metadata: { phone_number_id: '555' },
        contacts: [{ wa_id: '4917', profile: { name: 'Bo' } }],
        messages,
        statuses,
      },
    });
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'E1',
          changes: [
            change([
              { from: '4917', id: 'wamid.A', type: 'text', text: { body: 'one' } },
              { from: '4917', id: 'wamid.B', type: 'image', image: {} },
            ]),
          ],
        },
        {
          id: 'E2',
          changes: [
            change([{ from: '4918', id: 'wamid.C', type: 'text', text: { body: 'two' } }], [{ id: 'wamid.X', status: 'read' }]),
          ],
        },
      ],
    });
    const res = await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) });
    expect(res.status).toBe(200);
    const again = await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) });
    expect(again.status).toBe(200);
    const turns = await gw.drainTurns();
    expect(turns.map((t) => t.kind === 'message' && [t.delivery_id, t.event.text, t.event.source.user_name])).toEqual([
      ['whatsapp:wamid.A', 'one', 'Bo'],
      ['whatsapp:wamid.C', 'two', ''],
    ]);
  });

  it("a batch from many chats: every message queued once, each chat's in the order sent", async () => {
    // 40 senders, 5 messages each, interleaved as Meta batches a busy number's notifications.
    const messages = Array.from({ length: 200 }, (_, i) => ({
      from: `49${i % 40}`,
      id: `wamid.batch-${i}`,
      type: 'text',
      text: { body: `m${Math.floor(i / 40)}` },
    }));
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'E', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', messages } }] }],
    });
    const res = await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) });
    expect(res.status).toBe(200);
    const turns = await gw.drainTurns();
    expect(turns).toHaveLength(200);
    const bySender = new Map<string, string[]>();
    for (const turn of turns) {
      if (turn.kind !== 'message') continue;
      bySender.set(turn.event.source.chat_id, [...(bySender.get(turn.event.source.chat_id) ?? []), turn.event.text]);
    }
    expect(bySender.size).toBe(40);
    for (const texts of bySender.values()) expect(texts).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  /** A signed notification of `messages` from one business number, posted as Meta does. */
  const postMessages = (messages: unknown[], metadata?: Record<string, unknown>) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', messages, ...(metadata ? { metadata } : {}) } }],
        },
      ],
    });
    return gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) });
  };

  it('413 for a batch one of whose messages would not fit on the turns queue, before any of it is queued', async () => {
    const batch = (filename: string) => [
      { from: '7001', id: 'wamid.big-A', type: 'text', text: { body: 'first of the batch' } },
      { from: '7002', id: 'wamid.big-B', type: 'document', document: { id: 'MEDIA1', mime_type: 'text/plain', filename } },
    ];
    // A file name has no limit of its own; the message it makes is over SQS's 256 KiB.
    const refused = await postMessages(batch('f'.repeat(300_000)));
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /as a turn message; the turns queue takes at most 262144 bytes/,
    );
    expect(await gw.drainTurns()).toEqual([]);
    // Nothing was claimed: the same messages, the file name fixed, are all queued.
    expect((await postMessages(batch('notes.txt'))).status).toBe(200);
    expect((await gw.drainTurns()).map((t) => t.delivery_id)).toEqual(['whatsapp:wamid.big-A', 'whatsapp:wamid.big-B']);
  });

  it('400 for a message from no one (an empty from): it would name no chat', async () => {
    const res = await postMessages([{ from: '', id: 'wamid.nobody', type: 'text', text: { body: 'hi' } }]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/chat_id is empty/);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('takes a message whatever number the notification names: the reply is sent from WHATSAPP_PHONE_NUMBER_ID, never from a URL segment it carries', async () => {
    for (const [n, id] of ['../../evil/path?x=', 'PHONE_NUMBER_ID', '106540352242922'].entries()) {
      const message = { from: '4992', id: `wamid.number-${n}`, type: 'text', text: { body: 'x' } };
      expect((await postMessages([message], { phone_number_id: id })).status).toBe(200);
    }
    const turns = await gw.drainTurns();
    expect(turns.map((t) => (t as { event: { reply: unknown } }).event.reply)).toEqual(
      Array(3).fill({ platform: 'whatsapp', chat_id: '4992', thread_id: '', extra: {} }),
    );
  });

  it('acks a statuses-only notification with no turn; refuses a bad signature with 401', async () => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: { statuses: [{ id: 'x' }] } }] }],
    });
    expect((await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) })).status).toBe(200);
    expect((await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('nope', body) })).status).toBe(401);
    expect(await gw.drainTurns()).toEqual([]);
  });
});

describe('teams', () => {
  const serviceUrl = () => `${fake.url}/teams-service/`;
  const activity = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'message',
      id,
      serviceUrl: serviceUrl(),
      channelId: 'msteams',
      from: { id: '29:user', name: 'Cy' },
      conversation: { id: 'a:conv1', conversationType: 'personal' },
      recipient: { id: '28:bot' },
      text: '<at>Bot</at> hello teams',
      ...extra,
    });

  it('enqueues a message whose JWT verifies against the JWKS', async () => {
    const token = await fake.teamsToken({ serviceUrl: serviceUrl() });
    const res = await gw.request('/webhooks/teams', {
      body: activity('A1'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      delivery_id: 'teams:a:conv1:A1',
      event: { text: 'hello teams', source: { chat_type: 'dm', user_id: '29:user' }, reply: { extra: { activity_id: 'A1' } } },
    });
  });

  it.each([
    ['wrong audience', { audience: 'someone-else' }, {}],
    ['wrong issuer', { issuer: 'https://evil.example' }, {}],
    ['expired beyond the 5-minute skew', { expiresIn: Math.floor(Date.now() / 1000) - 400 }, {}],
    ['serviceUrl claim differs', {}, { serviceUrl: 'https://evil.example/' }],
  ])('refuses a token with %s (401)', async (_label, options, claims) => {
    const token = await fake.teamsToken({ serviceUrl: serviceUrl(), ...claims }, options);
    const res = await gw.request('/webhooks/teams', {
      body: activity('A2'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
  });

  it('accepts a token expired less than 5 minutes ago (clock skew)', async () => {
    const token = await fake.teamsToken({ serviceUrl: serviceUrl() }, { expiresIn: Math.floor(Date.now() / 1000) - 120 });
    const res = await gw.request('/webhooks/teams', {
      body: activity('A3'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a missing token with 401', async () => {
    expect((await gw.request('/webhooks/teams', { body: activity('A4') })).status).toBe(401);
  });
});

describe('local', () => {
  it('answers 202 with the delivery id and enqueues the turn', async () => {
    const res = await gw.request('/webhooks/local', { body: JSON.stringify({ chat_id: 'c1', user_id: 'u1', text: 'yo' }) });
    expect(res.status).toBe(202);
    const { delivery_id } = (await res.json()) as { delivery_id: string };
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({ delivery_id, session_key: 'local:c1', event: { text: 'yo' } });
  });

  it('answers 400 for a body without text', async () => {
    const res = await gw.request('/webhooks/local', { body: JSON.stringify({ chat_id: 'c1', user_id: 'u1' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/text/);
  });
});

describe('malformed but correctly signed bodies get 400 on every platform', () => {
  const bodies = [
    '{not json',
    '[]',
    '{"type":"event_callback"}',
    JSON.stringify({ object: 'x', entry: 'nope' }),
    JSON.stringify({ type: 2, id: 1 }),
    // JSON around bytes that are not UTF-8: signed as sent, so it gets past the signature and is refused for what it is.
    Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xc0, 0xaf, 0xff]), Buffer.from('"}')]),
  ];
  it.each(bodies)('%s', async (body) => {
    const teamsToken = await fake.teamsToken({ serviceUrl: 'http://x/' });
    const statuses = await Promise.all([
      gw.request('/webhooks/telegram', { body, headers: tgHeaders }),
      gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) }),
      gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) }),
      gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) }),
      gw.request('/webhooks/teams', {
        body,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${teamsToken}` },
      }),
      gw.request('/webhooks/local', { body }),
    ]).then((all) => all.map((r) => r.status));
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400]);
  });

  it('names a body that is not UTF-8 as such, and still refuses it unsigned with 401', async () => {
    const body = Buffer.concat([Buffer.from('{"type":1,"text":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    const signed = await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });
    expect(signed.status).toBe(400);
    expect(await signed.json()).toEqual({ error: 'slack payload: the body is not UTF-8' });
    const forged = await gw.request('/webhooks/slack', { body, headers: slackHeaders('not-the-secret', body) });
    expect(forged.status).toBe(401);
  });

  it('takes a signed body that starts with a byte order mark, signed as sent', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type":"url_verification","challenge":"c-bom"}')]);
    const res = await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('c-bom');
  });
});

describe('methods', () => {
  it('a webhook route answers any method but its own with 405 and Allow; a disabled platform with 404', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const res = await gw.request('/webhooks/telegram', { method });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
    const put = await gw.request('/webhooks/whatsapp', { method: 'PUT' });
    expect([put.status, put.headers.get('allow'), await put.json()]).toEqual([405, 'GET, POST', { error: 'use GET, POST' }]);
    expect((await gw.request('/webhooks/whatsapp', { method: 'HEAD' })).status).toBe(405);
    expect((await gw.request('/webhooks/nope', { method: 'PUT' })).status).toBe(404);
    expect(await gw.drainTurns()).toEqual([]);
  });
});

describe('gateway replies on the platform APIs', () => {
  it('a Telegram /help is answered through sendMessage in the chat', async () => {
    const before = fake.received('/telegram/').length;
    await gw.request('/webhooks/telegram', { body: telegramUpdate('/help@hookgate_bot'), headers: tgHeaders });
    const sent = fake.received('/telegram/').slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/telegram/bot123:abc/sendMessage']);
    expect(sent[0]!.json).toMatchObject({ chat_id: '-100', text: expect.stringMatching(/^Commands:/) });
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('a Slack refusal goes through chat.postMessage in the thread', async () => {
    gw = gatewayHarness(aws, { ...env(fake.url), HOOKGATE_ALLOWED_USERS: 'slack:U1' }, engine);
    const before = fake.received('/slack/').length;
    const body = JSON.stringify({
      type: 'event_callback',
      event_id: 'EvR',
      event: { type: 'message', user: 'U2', text: 'hi', channel: 'C9', ts: '5.5', thread_ts: '5.0' },
    });
    expect((await gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) })).status).toBe(200);
    const sent = fake.received('/slack/').slice(before);
    expect(sent[0]!.json).toEqual({
      channel: 'C9',
      text: '⛔ You are not allowed to use this bot (slack:U2).',
      thread_ts: '5.0',
    });
    expect(sent[0]!.headers.authorization).toBe('Bearer xoxb-1');
  });

  it('a failing platform API does not turn a handled command into a retry', async () => {
    fake.failNext('/telegram/', 500);
    const res = await gw.request('/webhooks/telegram', { body: telegramUpdate('/status'), headers: tgHeaders });
    expect(res.status).toBe(200);
  });
});

describe('durability', () => {
  it('answers 503 when the queue is unreachable and takes the platform’s retry afterwards', async () => {
    let failing = true;
    const real = gw.plane.turnQueue;
    gw = gatewayHarness(aws, env(fake.url), engine, {
      turnQueue: { send: async (m) => (failing ? Promise.reject(new Error('queue down')) : real.send(m)) },
    });
    const body = telegramUpdate('retry me');
    const first = await gw.request('/webhooks/telegram', { body, headers: tgHeaders });
    expect(first.status).toBe(503);
    expect(await first.text()).not.toMatch(/queue down|\.ts:/);
    failing = false;
    expect((await gw.request('/webhooks/telegram', { body, headers: tgHeaders })).status).toBe(200);
    expect(await gw.drainTurns()).toHaveLength(1);
  });

  it('answers 503 when the dedup store is unreachable', async () => {
    gw = gatewayHarness(aws, env(fake.url), engine, {
      dedup: { claim: () => Promise.reject(new Error('table down')), release: async () => {}, claimedAt: async () => undefined },
    });
    expect((await gw.request('/webhooks/telegram', { body: telegramUpdate('x'), headers: tgHeaders })).status).toBe(503);
  });

  it('answers 404 for a platform that is not enabled', async () => {
    const res = await gw.request('/webhooks/myspace', { body: '{}' });
    expect(res.status).toBe(404);
  });
});

import { createHmac, sign } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable } from '../hooks/support/temp-home.ts';
import { discordKeys } from '../support/fake-platforms/signed-requests.ts';
import { faultLine, settle, until } from './support/fault-line.ts';
import {
  ACK,
  chatMessage,
  post,
  recorderPlugin,
  SECRETS,
  startFaultDev,
  type FaultDev,
  type Platform,
} from './support/fault-dev.ts';

/**
 * Fault 10: forged requests — bad signatures, signatures with the wrong secret or key, stale
 * and future timestamps, captured requests replayed later, Teams tokens with the wrong
 * audience, issuer, key or expiry, `/v1` without or with a wrong token. Every one is refused
 * (401/403), and a recorder plugin on every hook a message or `/v1` call reaches proves that
 * nothing got through: after one genuine message per platform (which it does record), the
 * forged ones add no hook call and no platform send.
 */
let fd: FaultDev;

beforeAll(async () => {
  fd = await startFaultDev({ files: { 'config.yaml': enable('recorder'), ...recorderPlugin() } });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

type Forgery = { name: string; path: string; body: string; headers: Record<string, string> };
const now = () => Math.floor(Date.now() / 1000);
const slackSig = (secret: string, ts: number, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;

async function forgeries(): Promise<Forgery[]> {
  const list: Forgery[] = [];
  const add = (name: string, path: string, body: string, headers: Record<string, string>) =>
    list.push({ name, path, body, headers: { 'content-type': 'application/json', ...headers } });
  const msg = (platform: Platform, n: number) => chatMessage(fd, platform, `forged${n}`, 900_000 + n, `forged ${platform} ${n}`);
  let n = 0;

  // Telegram: the secret token is the only proof.
  for (const [name, headers] of [
    ['no secret token', {}],
    ['wrong secret token', { 'x-telegram-bot-api-secret-token': 'tg-secreT' }],
    ['empty secret token', { 'x-telegram-bot-api-secret-token': '' }],
  ] as const)
    add(`telegram ${name}`, '/webhooks/telegram', msg('telegram', ++n).body, headers);

  // Slack: HMAC over v0:timestamp:body, 5 minutes either way.
  for (const [name, make] of [
    ['no signature', () => ({ 'x-slack-request-timestamp': String(now()) })],
    [
      'wrong secret',
      (b: string) => ({ 'x-slack-request-timestamp': String(now()), 'x-slack-signature': slackSig('not-the-secret', now(), b) }),
    ],
    [
      'signature of another body',
      () => ({ 'x-slack-request-timestamp': String(now()), 'x-slack-signature': slackSig(SECRETS.slack, now(), '{}') }),
    ],
    [
      'stale timestamp (10 min), correctly signed',
      (b: string) => ({
        'x-slack-request-timestamp': String(now() - 600),
        'x-slack-signature': slackSig(SECRETS.slack, now() - 600, b),
      }),
    ],
    [
      'future timestamp (10 min), correctly signed',
      (b: string) => ({
        'x-slack-request-timestamp': String(now() + 600),
        'x-slack-signature': slackSig(SECRETS.slack, now() + 600, b),
      }),
    ],
    [
      'captured request replayed 6 min later',
      (b: string) => ({
        'x-slack-request-timestamp': String(now() - 360),
        'x-slack-signature': slackSig(SECRETS.slack, now() - 360, b),
      }),
    ],
    [
      'timestamp swapped under a captured signature',
      (b: string) => ({
        'x-slack-request-timestamp': String(now()),
        'x-slack-signature': slackSig(SECRETS.slack, now() - 360, b),
      }),
    ],
  ] as const) {
    const body = msg('slack', ++n).body;
    add(`slack ${name}`, '/webhooks/slack', body, make(body));
  }

  // Discord: Ed25519 over timestamp + body with the application's key.
  const otherKeys = discordKeys();
  for (const [name, make] of [
    ['no signature', () => ({ 'x-signature-timestamp': String(now()) })],
    [
      'signed with another key',
      (b: string) => ({
        'x-signature-timestamp': String(now()),
        'x-signature-ed25519': sign(null, Buffer.from(String(now()) + b), otherKeys.privateKey).toString('hex'),
      }),
    ],
    [
      'signature of another body',
      () => ({
        'x-signature-timestamp': String(now()),
        'x-signature-ed25519': sign(null, Buffer.from(`${now()}{}`), fd.discord.privateKey).toString('hex'),
      }),
    ],
    [
      'timestamp swapped under a captured signature',
      (b: string) => ({
        'x-signature-timestamp': String(now() - 1),
        'x-signature-ed25519': sign(null, Buffer.from(String(now() - 400) + b), fd.discord.privateKey).toString('hex'),
      }),
    ],
    ['garbage signature', () => ({ 'x-signature-timestamp': String(now()), 'x-signature-ed25519': 'zz'.repeat(64) })],
  ] as const) {
    const body = msg('discord', ++n).body;
    add(`discord ${name}`, '/webhooks/discord', body, make(body));
  }

  // WhatsApp: HMAC-SHA256 of the body with the app secret.
  for (const [name, make] of [
    ['no signature', () => ({})],
    [
      'wrong secret',
      (b: string) => ({ 'x-hub-signature-256': `sha256=${createHmac('sha256', 'nope').update(b).digest('hex')}` }),
    ],
    [
      'signature of another body',
      () => ({ 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRETS.whatsapp).update('{}').digest('hex')}` }),
    ],
    [
      'sha1 signature',
      (b: string) => ({ 'x-hub-signature': `sha1=${createHmac('sha1', SECRETS.whatsapp).update(b).digest('hex')}` }),
    ],
  ] as const) {
    const body = msg('whatsapp', ++n).body;
    add(`whatsapp ${name}`, '/webhooks/whatsapp', body, make(body));
  }

  // Teams: a Bot Framework JWT from the OpenID metadata's issuer and JWKS, audience = app id.
  const serviceUrl = `${fd.fake.url}/teams-service/`;
  const { privateKey: strangerKey } = await generateKeyPair('RS256');
  const stranger = await new SignJWT({ serviceUrl })
    .setProtectedHeader({ alg: 'RS256', kid: 'fake-key' })
    .setIssuer(fd.fake.teamsIssuer)
    .setAudience('teams-app-id')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(strangerKey);
  const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ serviceUrl, iss: fd.fake.teamsIssuer, aud: 'teams-app-id', exp: now() + 600 })).toString('base64url')}.`;
  for (const [name, token] of [
    ['no token', undefined],
    ['wrong audience', await fd.fake.teamsToken({ serviceUrl }, { audience: 'another-app' })],
    ['wrong issuer', await fd.fake.teamsToken({ serviceUrl }, { issuer: 'https://evil.example' })],
    ['wrong key (same kid)', stranger],
    ['expired an hour ago', await fd.fake.teamsToken({ serviceUrl }, { expiresIn: now() - 3600 })],
    ['serviceUrl claim of another service', await fd.fake.teamsToken({ serviceUrl: 'https://evil.example/' })],
    ['alg none', unsigned],
  ] as const)
    add(`teams ${name}`, '/webhooks/teams', msg('teams', ++n).body, token ? { authorization: `Bearer ${token}` } : {});

  // /v1: the bearer token.
  for (const path of ['/v1/hooks/pre_tool_call', '/v1/events']) {
    const body = path.endsWith('events')
      ? JSON.stringify({ type: 'post_tool_call', payload: { tool_name: 'forged', result: 'x' } })
      : JSON.stringify({ tool_name: 'forged', args: {}, session_id: 's', task_id: 't' });
    for (const [name, headers] of [
      ['no token', {}],
      ['wrong token', { authorization: 'Bearer wrong-token' }],
      ['token with a character more', { authorization: `Bearer ${fd.dev.apiToken}x` }],
      ['token as Basic', { authorization: `Basic ${fd.dev.apiToken}` }],
      ['token in a query string', {}],
    ] as const)
      add(`${path} ${name}`, name === 'token in a query string' ? `${path}?token=${fd.dev.apiToken}` : path, body, headers);
  }
  return list;
}

describe('fault 10: forged requests', () => {
  it('are refused, and nothing reaches a hook or a platform', async (ctx) => {
    // One genuine message per platform: the recorder sees it (so it would see a forged one).
    const genuine = (['telegram', 'slack', 'discord', 'whatsapp', 'teams'] as const).map((platform, i) =>
      chatMessage(fd, platform, `real${i}`, 800_000 + i, `genuine ${platform}`),
    );
    for (const message of genuine) expect(await post(fd, message)).toBe(ACK[message.platform]);
    await Promise.all(genuine.map((m) => until(m.replies, (r) => r.length === 1)));
    const v1 = await fetch(`${fd.dev.url}/v1/hooks/pre_tool_call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fd.dev.apiToken}` },
      body: JSON.stringify({ tool_name: 'genuine', args: {}, session_id: 's', task_id: 't' }),
    });
    expect(v1.status).toBe(200);
    await until(
      () => fetch(`${fd.dev.url}/healthz`).then((r) => r.status),
      (s) => s === 200,
    );
    await settle(1_000);
    const recordedBefore = (await fd.recorded()).length;
    expect((await fd.recorded()).some((r) => r.hook === 'pre_tool_call' && r.kwargs.tool_name === 'genuine')).toBe(true);
    const sendsBefore = fd.fake.requests.length;

    const list = await forgeries();
    const outcomes: { name: string; status: number }[] = [];
    for (const forgery of list) {
      const res = await fetch(`${fd.dev.url}${forgery.path}`, { method: 'POST', body: forgery.body, headers: forgery.headers });
      await res.arrayBuffer();
      outcomes.push({ name: forgery.name, status: res.status });
    }
    // Anything that slipped through would be queued: give it time to reach a hook.
    await settle(3_000);
    await until(
      () => fetch(`${fd.dev.url}/healthz`).then((r) => r.status),
      (s) => s === 200,
    );
    const recorded = (await fd.recorded()).slice(recordedBefore);
    const sends = fd.fake.requests.slice(sendsBefore).filter((r) => !r.path.startsWith('/teams/'));
    const accepted = outcomes.filter((o) => o.status !== 401 && o.status !== 403);
    faultLine(
      ctx,
      `fault 10 forged-requests: ${list.length} forged requests (${[...new Set(list.map((f) => f.name.split(' ')[0]))].join(', ')}), ${list.length - accepted.length} refused 401/403, ${recorded.length} hook calls, ${sends.length} platform sends after them${accepted.length ? `; accepted: ${accepted.map((o) => `${o.name} ${o.status}`).join(', ')}` : ''}`,
    );
    expect(accepted).toEqual([]);
    expect(recorded).toEqual([]);
    expect(sends).toEqual([]);
  });
});

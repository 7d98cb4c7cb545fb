import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEndpointsPath } from '../../src/local/dev-endpoints.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { discordHeaders, discordKeys } from '../support/fake-platforms/signed-requests.ts';
import { until } from '../support/until.ts';

const keys = discordKeys();
let fake: FakePlatforms;
let home: string;
let dev: DevChild;
let cwd: string | undefined;
let url: string;

const eventually = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 25_000) =>
  until(probe, what, { timeoutMs, everyMs: 100, context: () => `stdout:\n${dev.stdout()}\nstderr:\n${dev.stderr()}` });

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-e2e-'));
  // A gateway hook on gateway:startup and session:reset: it proves the observer path (SNS → SQS → poller → engine).
  await mkdir(join(home, 'hooks', 'boot'), { recursive: true });
  await writeFile(join(home, 'hooks', 'boot', 'HOOK.yaml'), 'name: boot\nevents:\n  - gateway:startup\n  - session:reset\n');
  await writeFile(
    join(home, 'hooks', 'boot', 'handler.ts'),
    `import { appendFileSync, writeFileSync } from 'node:fs';\nexport function handle(type: string, context: Record<string, unknown>) {\n  writeFileSync(${JSON.stringify(join(home, 'home-seen.txt'))}, String(process.env.HOOKGATE_HOME));\n  appendFileSync(${JSON.stringify(join(home, 'seen.log'))}, JSON.stringify({ type, context }) + '\\n');\n}\n`,
  );
  cwd = await mkdtemp(join(tmpdir(), 'hookgate-cwd-')); // works from any working directory
  fake = await startFakePlatforms();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_API_TOKEN: 'e2e-token-0123456789',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOOKGATE_LOG_LEVEL: 'warn',
    TELEGRAM_BOT_TOKEN: '42:e2e',
    TELEGRAM_SECRET_TOKEN: 'e2e-secret',
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_APPLICATION_ID: '1234',
    DISCORD_API_BASE_URL: `${fake.url}/discord`,
  };
  delete env.HOOKGATE_HOME;
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevChild(['--home', home], { cwd, env, timeoutMs: 40_000 });
  url = dev.url;
}, 60_000);

afterAll(async () => {
  await dev?.stop('SIGKILL');
  await fake?.close();
  await rm(home, { recursive: true, force: true });
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe('hookgate dev (the real binary)', () => {
  it('prints what it serves', () => {
    expect(dev.stdout()).toContain('platforms: telegram, discord, local');
    expect(dev.stdout()).toMatch(/stand-in model/);
  });

  it('fires gateway:startup with the platforms through the observer pipeline', async () => {
    const log = await eventually(async () => {
      const text = existsSync(join(home, 'seen.log')) ? await readFile(join(home, 'seen.log'), 'utf8') : '';
      return text.includes('gateway:startup') ? text : undefined;
    }, 'gateway:startup in seen.log');
    expect(JSON.parse(log.split('\n')[0]!)).toEqual({
      type: 'gateway:startup',
      context: { platforms: ['telegram', 'discord', 'local'] },
    });
  });

  it('exports --home to the hooks as HOOKGATE_HOME (none was set)', async () => {
    await eventually(async () => (existsSync(join(home, 'seen.log')) ? true : undefined), 'gateway:startup in seen.log');
    expect(await readFile(join(home, 'home-seen.txt'), 'utf8')).toBe(home);
  });

  it('answers a local chat message through the turn runtime: You said: <message>', async () => {
    const res = await fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'e2e', user_id: 'me', text: 'hello there' }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { delivery_id: string }).delivery_id).toMatch(/^local:/);
    const messages = await eventually(async () => {
      const list = (await (await fetch(`${url}/webhooks/local/messages?chat_id=e2e`)).json()) as { text: string; at: string }[];
      return list.length > 0 ? list : undefined;
    }, 'the bot reply');
    expect(messages[0]!.text).toContain('You said: hello there');
    expect(Number.isNaN(Date.parse(messages[0]!.at))).toBe(false);
  });

  it('handles /new inline and the reset reaches gateway hooks', async () => {
    await fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'e2e-new', user_id: 'me', text: '/new' }),
    });
    const list = await eventually(async () => {
      const got = (await (await fetch(`${url}/webhooks/local/messages?chat_id=e2e-new`)).json()) as { text: string }[];
      return got.length > 0 ? got : undefined;
    }, 'the /new reply');
    expect(list.map((m) => m.text)).toEqual(['✨ New session started.']);
    await eventually(
      async () => ((await readFile(join(home, 'seen.log'), 'utf8')).includes('session:reset') ? true : undefined),
      'session:reset',
    );
  });

  it('serves /v1 with the bearer token', async () => {
    const res = await fetch(`${url}/v1/hooks/pre_tool_call`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ tool_name: 'terminal', args: {} }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: 'allow' });
  });

  it('answers a signed Telegram update through the fake Telegram API (sendMessage wire format)', async () => {
    const body = JSON.stringify({
      update_id: 9001,
      message: { message_id: 5, from: { id: 77, first_name: 'T' }, chat: { id: 77, type: 'private' }, text: 'ping telegram' },
    });
    const res = await fetch(`${url}/webhooks/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'e2e-secret' },
      body,
    });
    expect(res.status).toBe(200);
    const sent = await eventually(
      async () => fake.received('/telegram/bot42:e2e/sendMessage')[0],
      'the Telegram sendMessage call',
    );
    expect(sent.json).toMatchObject({ chat_id: '77', text: expect.stringContaining('You said: ping telegram') });
  });

  it('defers a Discord slash command and answers by follow-up through the interaction token', async () => {
    const body = JSON.stringify({
      id: 'I-e2e',
      application_id: '1234',
      type: 2,
      token: 'itok-e2e',
      channel_id: 'CH',
      user: { id: 'U1' },
      data: { name: 'ask', options: [{ name: 'q', type: 3, value: 'hello discord' }] },
    });
    const res = await fetch(`${url}/webhooks/discord`, { method: 'POST', headers: discordHeaders(keys, body), body });
    expect(await res.json()).toEqual({ type: 5 });
    const followUp = await eventually(async () => fake.received('/discord/webhooks/1234/itok-e2e')[0], 'the Discord follow-up');
    expect(followUp.json).toEqual({ content: expect.stringContaining('You said: /ask hello discord') });
  });

  it('writes the dev endpoints file and removes it on SIGINT', async () => {
    const endpoints = JSON.parse(await readFile(devEndpointsPath(home), 'utf8')) as { gatewayUrl: string; pid: number };
    expect(endpoints.gatewayUrl).toBe(url);
    dev.child.kill('SIGINT');
    expect(await dev.waitForExit()).toBe(0);
    expect(existsSync(devEndpointsPath(home))).toBe(false);
  });
});

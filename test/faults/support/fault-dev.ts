import { createHmac, sign } from 'node:crypto';
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordHookRun } from '../../../src/agent/trace/hook-run-scope.ts';
import { createTurnConsumer } from '../../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime, type TurnConsumerContext } from '../../../src/local/dev-runtime.ts';
import {
  startFakePlatforms,
  type FakePlatforms,
  type RecordedRequest,
} from '../../support/fake-platforms/fake-platform-server.ts';
import { discordKeys } from '../../support/fake-platforms/signed-requests.ts';
import {
  discordSayInteraction,
  slackMessageEvent,
  teamsMessageActivity,
  telegramTextUpdate,
  whatsAppTextMessage,
} from '../../support/fake-platforms/inbound-bodies.ts';
import { plugin, tempHome, type TempHome } from '../../hooks/support/temp-home.ts';

/** Every platform `hookgate dev` serves, and the status each acknowledges a message with. */
export const PLATFORMS = ['telegram', 'slack', 'discord', 'whatsapp', 'teams', 'local'] as const;
export type Platform = (typeof PLATFORMS)[number];
export const ACK: Record<Platform, number> = { telegram: 200, slack: 200, discord: 200, whatsapp: 200, teams: 200, local: 202 };

/** The plugin hooks the recorder listens to: every one a chat message or a `/v1` call can reach. */
const RECORDED_HOOKS = [
  'pre_gateway_dispatch',
  'on_session_start',
  'pre_llm_call',
  'post_llm_call',
  'transform_llm_output',
  'pre_tool_call',
  'post_tool_call',
  'on_session_end',
];

/** A recorder plugin: appends `{hook, kwargs}` to `<home>/recorded.jsonl` for every hook it sees. */
export function recorderPlugin(): Record<string, string> {
  return plugin(
    'recorder',
    `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'recorded.jsonl');
      for (const hook of ${JSON.stringify(RECORDED_HOOKS)}) {
        ctx.register_hook(hook, function recorder(kwargs: any) { appendFileSync(file, JSON.stringify({ hook, kwargs }) + '\\n'); });
      }`,
  );
}

export interface FaultDev {
  dev: DevRuntime;
  fake: FakePlatforms;
  home: TempHome;
  logger: ReturnType<typeof createMemoryLogger>;
  discord: ReturnType<typeof discordKeys>;
  /** The recorder plugin's lines (empty when it is not enabled). */
  recorded(): Promise<{ hook: string; kwargs: Record<string, any> }[]>;
  stop(): Promise<void>;
}

export interface FaultDevOptions {
  /** Files of the hooks home (a function: given its path); config.yaml enables `recorder` when the case reads `recorded()`. */
  files: Record<string, string> | ((home: string) => Record<string, string>);
  env?: NodeJS.ProcessEnv;
  /** Files (relative to the home) made executable before dev starts. */
  executables?: string[];
  /** Runs once the home is written, before dev starts (e.g. `hookgate hooks approve`). */
  beforeStart?: (home: string) => Promise<void>;
  acceptHooks?: boolean;
  /** A DynamoDB of the case's own instead of the embedded one (case 4 stops and restarts it). */
  dynamodbEndpoint?: string;
  /** An SQS/SNS/S3 endpoint of the case's own instead of the embedded fauxqs (case 4 cuts it off). */
  sqsEndpoint?: string;
  /** Sees dev's data plane once, before the first turn (the load case counts its AWS requests). */
  onPlane?: (plane: TurnConsumerContext['plane']) => void;
}

/** Platform secrets used by every fault case (the fake platform API checks none of them). */
export const SECRETS = { telegram: 'tg-secret', slack: 'slack-secret', whatsapp: 'wa-secret' } as const;

/**
 * `hookgate dev` in-process on port 0 with every platform on, their APIs faked on loopback,
 * the stand-in model and the given hooks home.
 */
export async function startFaultDev(options: FaultDevOptions): Promise<FaultDev> {
  const discord = discordKeys();
  const fake = await startFakePlatforms();
  const home = await tempHome();
  await home.write(typeof options.files === 'function' ? options.files(home.path) : options.files);
  for (const file of options.executables ?? []) await chmod(join(home.path, file), 0o755);
  await options.beforeStart?.(home.path);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_HOME: home.path,
    HOOKGATE_LOG_LEVEL: 'error',
    TELEGRAM_BOT_TOKEN: '123:abc',
    TELEGRAM_SECRET_TOKEN: SECRETS.telegram,
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    SLACK_SIGNING_SECRET: SECRETS.slack,
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_API_BASE_URL: `${fake.url}/slack`,
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    DISCORD_APPLICATION_ID: '999',
    DISCORD_API_BASE_URL: `${fake.url}/discord`,
    WHATSAPP_APP_SECRET: SECRETS.whatsapp,
    WHATSAPP_VERIFY_TOKEN: 'wa-verify',
    WHATSAPP_ACCESS_TOKEN: 'wa-access',
    WHATSAPP_PHONE_NUMBER_ID: '555',
    WHATSAPP_API_BASE_URL: `${fake.url}/whatsapp`,
    TEAMS_APP_ID: 'teams-app-id',
    TEAMS_APP_PASSWORD: 'pw',
    TEAMS_OPENID_METADATA_URL: `${fake.url}/teams/openid`,
    TEAMS_TOKEN_URL: `${fake.url}/teams/token`,
    ...options.env,
  };
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_ALLOWED_USERS;
  delete env.HOOKGATE_API_TOKEN;
  delete env.HOOKGATE_ACCEPT_HOOKS;
  delete env.HERMES_ACCEPT_HOOKS;
  const logger = createMemoryLogger();
  const dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    acceptHooks: options.acceptHooks ?? false,
    ...(options.dynamodbEndpoint ? { dynamodbEndpoint: options.dynamodbEndpoint } : {}),
    ...(options.sqsEndpoint ? { sqsEndpoint: options.sqsEndpoint } : {}),
    print: () => {},
    createEngine: (engineOptions) => createHookEngine({ ...engineOptions, onRun: recordHookRun, print: () => {}, logger }),
    createTurnConsumer: (context) => {
      options.onPlane?.(context.plane);
      return createTurnConsumer(context);
    },
  });
  return {
    dev,
    fake,
    home,
    logger,
    discord,
    async recorded() {
      const text = await readFile(join(home.path, 'recorded.jsonl'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
    async stop() {
      await dev.stop();
      await fake.close();
      await home.remove();
    },
  };
}

/** Signed headers for a raw body (Buffer: bad UTF-8 is signed as sent). */
export function signedHeaders(
  fd: FaultDev,
  platform: Platform,
  body: string | Buffer,
  contentType = 'application/json',
): Record<string, string> {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  const now = String(Math.floor(Date.now() / 1000));
  switch (platform) {
    case 'telegram':
      return { 'content-type': contentType, 'x-telegram-bot-api-secret-token': SECRETS.telegram };
    case 'slack':
      return {
        'content-type': contentType,
        'x-slack-request-timestamp': now,
        'x-slack-signature': `v0=${createHmac('sha256', SECRETS.slack)
          .update(Buffer.concat([Buffer.from(`v0:${now}:`), raw]))
          .digest('hex')}`,
      };
    case 'discord':
      return {
        'content-type': contentType,
        'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(now), raw]), fd.discord.privateKey).toString('hex'),
        'x-signature-timestamp': now,
      };
    case 'whatsapp':
      return {
        'content-type': contentType,
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRETS.whatsapp).update(raw).digest('hex')}`,
      };
    case 'teams':
    case 'local':
      return { 'content-type': contentType };
  }
}

/** One chat message on one platform, and how to read the replies the platform API received for it. */
export interface ChatMessage {
  platform: Platform;
  path: string;
  body: string;
  headers: () => Promise<Record<string, string>>;
  /** The reply texts for this message's chat, in the order the platform API received them. */
  replies: () => Promise<string[]>;
}

const json = (r: RecordedRequest) => r.json as Record<string, any>;

/**
 * A message `text` in chat `chat` on `platform`, with delivery number `n` (the platform's
 * update/event/message id: the same `n` is the same delivery, a redelivery).
 */
export function chatMessage(fd: FaultDev, platform: Platform, chat: string, n: number, text: string): ChatMessage {
  // Only sends the platform accepted (a failed or dropped try is not a reply the user saw).
  const requests = (match: (r: RecordedRequest) => boolean, pick: (r: RecordedRequest) => string) => async () =>
    fd.fake.requests.filter((r) => typeof r.status === 'number' && r.status < 300 && match(r)).map(pick);
  const signed = (body: string) => async () => signedHeaders(fd, platform, body);
  switch (platform) {
    case 'telegram': {
      const chatId = Number.parseInt(chat.replace(/\D/g, '') || '1', 10) + 1_000_000;
      const body = telegramTextUpdate({ updateId: n, chatId, text });
      return {
        platform,
        path: '/webhooks/telegram',
        body,
        headers: signed(body),
        replies: requests(
          (r) => r.path.startsWith('/telegram/') && String(json(r).chat_id) === String(chatId),
          (r) => json(r).text,
        ),
      };
    }
    case 'slack': {
      const channel = `D${chat}`;
      const body = slackMessageEvent({ eventId: `Ev${n}`, channel, ts: `${n}.000100`, text });
      return {
        platform,
        path: '/webhooks/slack',
        body,
        headers: signed(body),
        replies: requests(
          (r) => r.path.startsWith('/slack/') && json(r).channel === channel,
          (r) => json(r).text,
        ),
      };
    }
    case 'discord': {
      const token = `tok-${chat}-${n}`;
      const body = discordSayInteraction({ id: `I${n}`, token, channelId: `CH${chat}`, text });
      return {
        platform,
        path: '/webhooks/discord',
        body,
        headers: signed(body),
        replies: requests(
          (r) => r.path.startsWith(`/discord/webhooks/999/tok-${chat}-`),
          (r) => json(r).content,
        ),
      };
    }
    case 'whatsapp': {
      const from = `49${chat.replace(/\D/g, '') || '1'}`;
      const body = whatsAppTextMessage({ from, id: `wamid.${n}`, text });
      return {
        platform,
        path: '/webhooks/whatsapp',
        body,
        headers: signed(body),
        replies: requests(
          (r) => r.path.startsWith('/whatsapp/') && json(r).to === from,
          (r) => json(r).text.body,
        ),
      };
    }
    case 'teams': {
      const serviceUrl = `${fd.fake.url}/teams-service/`;
      const conversation = `a:conv-${chat}`;
      const body = teamsMessageActivity({ id: `A${n}`, serviceUrl, conversation, text });
      return {
        platform,
        path: '/webhooks/teams',
        body,
        headers: async () => ({
          'content-type': 'application/json',
          authorization: `Bearer ${await fd.fake.teamsToken({ serviceUrl })}`,
        }),
        replies: requests(
          (r) =>
            r.path.includes(`/conversations/${encodeURIComponent(conversation)}/activities/`) ||
            r.path.includes(`/conversations/${conversation}/activities/`),
          (r) => json(r).text,
        ),
      };
    }
    case 'local': {
      const body = JSON.stringify({ chat_id: chat, user_id: 'u1', text });
      return {
        platform,
        path: '/webhooks/local',
        body,
        headers: async () => ({ 'content-type': 'application/json' }),
        replies: async () =>
          ((await (await fetch(`${fd.dev.url}/webhooks/local/messages?chat_id=${chat}`)).json()) as { text: string }[]).map(
            (m) => m.text,
          ),
      };
    }
  }
}

/** Posts a chat message; the HTTP status. */
export async function post(fd: FaultDev, message: ChatMessage): Promise<number> {
  const res = await fetch(`${fd.dev.url}${message.path}`, {
    method: 'POST',
    body: message.body,
    headers: await message.headers(),
  });
  await res.arrayBuffer();
  return res.status;
}

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';
import { discordHeaders, discordKeys, slackHeaders, whatsAppHeaders } from '../support/fake-platforms/signed-requests.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';
import { recordingEngine } from './support/recording-engine.ts';

/** The platforms' own example bodies (test/gateway/fixtures/README.md says where each comes from). */
const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const keys = discordKeys();
let aws: RunningEmulators;
let gw: GatewayHarness;

beforeAll(async () => {
  aws = await startTestAws();
});
afterAll(async () => {
  gw?.plane.destroy();
  await aws?.stop();
});
beforeEach(async () => {
  gw?.plane.destroy();
  gw = gatewayHarness(
    aws,
    {
      TELEGRAM_BOT_TOKEN: '1:doc',
      TELEGRAM_SECRET_TOKEN: 'tg-secret',
      SLACK_SIGNING_SECRET: 'slack-secret',
      SLACK_BOT_TOKEN: 'xoxb-1',
      WHATSAPP_APP_SECRET: 'wa-secret',
      WHATSAPP_VERIFY_TOKEN: 'v',
      WHATSAPP_ACCESS_TOKEN: 'wa',
      WHATSAPP_PHONE_NUMBER_ID: '555',
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_APPLICATION_ID: '999',
    },
    recordingEngine(),
  );
  await gw.drainTurns();
});

const discord = (body: string) => gw.request('/webhooks/discord', { body, headers: discordHeaders(keys, body) });
const slack = (body: string) => gw.request('/webhooks/slack', { body, headers: slackHeaders('slack-secret', body) });

describe("Discord's documented interactions (no application_id)", () => {
  it("answers the interactions library's PING with PONG", async () => {
    const res = await discord(fixture('discord-ping.interactions-js.json'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
  });

  it("defers the library's bare command and follows up as DISCORD_APPLICATION_ID", async () => {
    const res = await discord(fixture('discord-command.interactions-js.json'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 5 });
    const [turn, ...rest] = await gw.drainTurns();
    expect(rest).toEqual([]);
    expect(turn).toMatchObject({
      delivery_id: 'discord:787053080478613556',
      event: {
        text: '/test',
        source: { platform: 'discord', chat_id: 'interaction:787053080478613556', user_id: null },
        reply: { extra: { interaction_token: 'ThisIsATokenFromDiscordThatIsVeryLong', application_id: '999' } },
      },
    });
  });

  it("takes the docs' slash-command example as '/cardsearch The Gitrog Monster'", async () => {
    const res = await discord(fixture('discord-slash-command.docs.json'));
    expect(await res.json()).toEqual({ type: 5 });
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      session_key: 'discord:645027906669510667',
      event: {
        text: '/cardsearch The Gitrog Monster',
        source: { chat_id: '645027906669510667', user_id: '53908232506183680', user_name: 'Mason', chat_type: 'group' },
        reply: { extra: { interaction_token: 'A_UNIQUE_TOKEN', application_id: '999' } },
      },
    });
  });

  it("refuses a body whose application_id is another application's, PING included", async () => {
    const foreign = JSON.stringify({ ...JSON.parse(fixture('discord-slash-command.docs.json')), application_id: '1421512' });
    const res = await discord(foreign);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/application_id "1421512" is not this application/);
    const ping = JSON.stringify({ ...JSON.parse(fixture('discord-ping.interactions-js.json')), application_id: '1421512' });
    expect((await discord(ping)).status).toBe(400);
    const ours = JSON.stringify({ ...JSON.parse(fixture('discord-ping.interactions-js.json')), application_id: '999' });
    expect((await discord(ours)).status).toBe(200);
    expect(await gw.drainTurns()).toEqual([]);
  });
});

describe("Telegram's documented update", () => {
  it("takes the webhook guide's text message (no chat.type): a private chat, by its positive id", async () => {
    const res = await gw.request('/webhooks/telegram', {
      body: fixture('telegram-message.webhooks-guide.json'),
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'tg-secret' },
    });
    expect(res.status).toBe(200);
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      delivery_id: 'telegram:10000',
      event: {
        text: '/start',
        source: { platform: 'telegram', chat_id: '1111111', user_id: '1111111', user_name: 'Test', chat_type: 'dm' },
      },
    });
  });
});

describe("WhatsApp's documented notification", () => {
  it("takes the messages webhook reference's text message", async () => {
    const body = fixture('whatsapp-text-message.docs.json');
    const res = await gw.request('/webhooks/whatsapp', { body, headers: whatsAppHeaders('wa-secret', body) });
    expect(res.status).toBe(200);
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      event: {
        text: 'Does it come in another color?',
        source: { platform: 'whatsapp', chat_id: '16505551234', user_id: '16505551234' },
        reply: { platform: 'whatsapp', chat_id: '16505551234', extra: {} },
      },
    });
  });
});

describe("Slack's documented events", () => {
  it('answers an app_mention (a bot with only app_mentions:read), without the leading mention', async () => {
    const res = await slack(fixture('slack-app-mention.docs.json'));
    expect(res.status).toBe(200);
    const [turn, ...rest] = await gw.drainTurns();
    expect(rest).toEqual([]);
    expect(turn).toMatchObject({
      delivery_id: 'slack:C123ABC456:1515449522.000016',
      session_key: 'slack:C123ABC456',
      event: {
        text: 'is it everything a river should be?',
        source: { platform: 'slack', chat_id: 'C123ABC456', user_id: 'U061F7AUR', chat_type: 'group' },
        reply: { chat_id: 'C123ABC456', thread_id: '' },
      },
    });
  });

  it('answers the message.channels example', async () => {
    await slack(fixture('slack-message-channels.docs.json'));
    const [turn] = await gw.drainTurns();
    expect(turn).toMatchObject({
      event: { text: 'Live long and prospect.', source: { chat_id: 'C123ABC456', user_id: 'U123ABC456', chat_type: 'group' } },
    });
  });

  it('runs one turn when both message and app_mention arrive for one message, in either order', async () => {
    const mention = JSON.parse(fixture('slack-app-mention.docs.json')) as {
      event: Record<string, unknown>;
      event_id: string;
      authorizations: unknown[];
    };
    const bot = [{ team_id: 'T123ABC456', user_id: 'U0LAN0Z89', is_bot: true, is_enterprise_install: false }];
    for (const [ts, first] of [
      ['1515449600.000100', 'message'],
      ['1515449600.000200', 'app_mention'],
    ] as const) {
      const asMention = { ...mention, authorizations: bot, event_id: `EvM${ts}`, event: { ...mention.event, ts } };
      const asMessage = {
        ...asMention,
        event_id: `EvS${ts}`,
        event: { ...asMention.event, type: 'message', channel_type: 'channel' },
      };
      const bodies = first === 'message' ? [asMessage, asMention] : [asMention, asMessage];
      for (const body of bodies) expect((await slack(JSON.stringify(body))).status).toBe(200);
      const turns = await gw.drainTurns();
      expect(turns).toHaveLength(1);
      expect(turns[0]).toMatchObject({ event: { text: 'is it everything a river should be?' } });
    }
  });
});

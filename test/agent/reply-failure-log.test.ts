import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StandInModel } from '../../src/agent/model/stand-in-model.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createReplier } from '../../src/platforms/create-replier.ts';
import { startTurnHarness, userMessage, type TurnHarness } from './support/turn-harness.ts';

/*
 * Logs are safe to read (issue #12): a platform that refuses a reply with a long answer full
 * of control characters and the bot token is logged escaped, cut and redacted, and the
 * Telegram URL (`/bot<token>/`) never appears.
 */
const BOT_TOKEN = '5550001234:FakeBotTokenForTheReplyFailureLog_xyz';
let server: Server;
let h: TurnHarness;
const saved = process.env.TELEGRAM_BOT_TOKEN;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`\u001b[2J\u001b]0;pwned\u0007 upstream saw ${req.url} with ${BOT_TOKEN}\n${'z'.repeat(1000)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TELEGRAM_BOT_TOKEN = BOT_TOKEN; // as in a deployment: the token is a known secret
  const config = loadDeploymentConfig(
    { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_SECRET_TOKEN: 'webhook-secret-123', TELEGRAM_API_BASE_URL: base },
    { runtime: 'local' },
  );
  h = await startTurnHarness({ transport: () => new StandInModel(), deps: { replier: createReplier(config) } });
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => server.close(resolve));
  if (saved === undefined) delete process.env.TELEGRAM_BOT_TOKEN;
  else process.env.TELEGRAM_BOT_TOKEN = saved;
});

it('a refused reply is logged escaped, cut and redacted, with no token-carrying URL', async () => {
  const message = userMessage('hello', 'tg1');
  if (message.kind !== 'message') throw new Error('a message');
  await h.invoke({
    ...message,
    event: {
      ...message.event,
      reply: { ...message.event.reply, platform: 'telegram' },
      source: { ...message.event.source, platform: 'telegram' },
    },
  });
  const line = (h.deps.logger as unknown as { lines: { message: string }[] }).lines
    .map((l) => l.message)
    .find((m) => m.includes('the reply could not be sent'));
  expect(line).toBeDefined();
  expect(line).toContain('HTTP 500');
  expect(line).toContain('\\u001b[2J');
  expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(line).not.toContain(BOT_TOKEN);
  expect(line).not.toContain(BOT_TOKEN.split(':')[1]);
  expect(line).toContain('/bot***/sendMessage');
  expect(line!.length).toBeLessThan(600);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { Replier } from '../../src/messaging/replier.ts';
import { redactSecrets } from '../../src/secrets/redact-secrets.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';
import { localReplies } from '../support/local-chat.ts';

/**
 * Under `hookgate dev` a turn's reply is redacted once, by the turn handler, as in the turn λ:
 * the replier dev hands the turn consumer is the λ's (`turnReplierOf`), not a redacting one.
 * (Redacting twice used to hide behind `redactSecrets` being idempotent for most texts.)
 */
const SECRET = 'sk-abcdefghijklmnopqrstuvwx';

let home: TempHome;
let dev: DevRuntime;
let turnReplier: Replier | undefined;

beforeAll(async () => {
  home = await tempHome({});
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home.path };
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => {
      turnReplier = context.replier;
      return createTurnConsumer(context);
    },
  });
});
afterAll(async () => {
  await dev?.stop();
  await home?.remove();
});

const messages = (chatId: string) => localReplies(dev.url, chatId);

describe('hookgate dev redacts a reply once', () => {
  it('the turn consumer gets the turn λ replier: it sends what it is given, the turn handler having redacted it', async () => {
    await turnReplier!.send({ platform: 'local', chat_id: 'raw', thread_id: '', extra: {} }, `verbatim ${SECRET}`);
    expect((await messages('raw')).map((m) => m.text)).toEqual([`verbatim ${SECRET}`]);
  });

  it('a chat reply holding a secret arrives redacted, equal to one pass of redactSecrets (what the turn λ sends)', async () => {
    const text = `my key is ${SECRET}`;
    const posted = await fetch(`${dev.url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'c1', user_id: 'u1', text }),
    });
    expect(posted.status).toBe(202);
    await until(async () => (await messages('c1')).length > 0, 'the reply');
    const [reply] = await messages('c1');
    expect(reply!.text).toBe(redactSecrets(`You said: ${text}`));
    expect(reply!.text).not.toContain(SECRET);
  });
});

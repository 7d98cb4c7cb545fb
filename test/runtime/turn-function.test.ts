import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { asDeployed } from '../support/function-grants.ts';
import { createTurnFunction } from '../../src/runtime/turn-function.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.ts';
import { startTestAws } from '../support/local-aws.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { onEmulators } from './support/on-emulators.ts';

let aws: RunningEmulators;
let model: FakeModelServer;
let telegram: Server;
let telegramUrl: string;
let home: TempHome;
const sent: { path: string; body: { chat_id: string; text: string } }[] = [];

beforeAll(async () => {
  aws = await startTestAws();
  model = await startFakeModelServer();
  home = await tempHome();
  telegram = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      sent.push({ path: req.url ?? '', body: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true,"result":{}}');
    });
  });
  await new Promise<void>((resolve) => telegram.listen(0, '127.0.0.1', resolve));
  telegramUrl = `http://127.0.0.1:${(telegram.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await model?.close();
  await new Promise((resolve) => telegram?.close(resolve));
  await aws?.stop();
  await home?.remove();
});

/** A Telegram DM's turn message: chat `chat`, user 7, delivery `telegram:<id>`. */
function telegramMessage(
  chat: string,
  id: string,
  text: string,
  more: Partial<Extract<TurnMessage, { kind: 'message' }>['event']> = {},
): TurnMessage {
  const source = { platform: 'telegram', chat_id: chat, user_id: '7', user_name: '', chat_type: 'dm', thread_id: '' };
  return {
    v: 1,
    kind: 'message',
    delivery_id: `telegram:${id}`,
    session_key: `telegram:${chat}`,
    received_at: new Date().toISOString(),
    event: {
      text,
      message_id: id,
      internal: false,
      source,
      reply: { platform: 'telegram', chat_id: chat, thread_id: '', extra: {} },
      ...more,
    },
  };
}

/** What a turn λ that calls the fake model and replies on the fake Telegram is given; `more` adds to it. */
const modelAndTelegram = (more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  HOOKGATE_HOME: home.path,
  HOOKGATE_MODEL: 'gpt-test',
  HOOKGATE_MODEL_BASE_URL: model.baseUrl,
  TELEGRAM_BOT_TOKEN: '123:abc',
  TELEGRAM_API_BASE_URL: telegramUrl,
  ...more,
});

/** The turn λ as functions/turn.ts builds it, on the emulators and the test's hooks home. */
const turnHandler = async (env: NodeJS.ProcessEnv) =>
  createTurnFunction(
    await asDeployed(
      'turn',
      createRuntime(onEmulators(loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: 'silent', ...env }, { runtime: 'aws' }), aws), {
        createEngine: (options) =>
          createHookEngine({ ...options, home: home.path, print: () => {}, logger: createMemoryLogger() }),
      }),
    ),
  );

describe('transcript retention (HOOKGATE_TRANSCRIPT_RETENTION_DAYS, set by the stack)', () => {
  it('reaches the transcript store the runtime builds: what a turn appends expires that many days ahead', async () => {
    const runtimeWith = (env: NodeJS.ProcessEnv) =>
      asDeployed(
        'turn',
        createRuntime(onEmulators(loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: 'silent', ...env }, { runtime: 'aws' }), aws), {
          createEngine: () => createHookEngine({ home: home.path, print: () => {}, logger: createMemoryLogger() }),
        }),
      );
    const expiries = async (env: NodeJS.ProcessEnv, session: string) => {
      const { plane } = await runtimeWith(env);
      await plane.transcripts.append(session, [{ role: 'user', content: 'hello' }]);
      const { Items = [] } = await plane.table.doc.send(
        new QueryCommand({
          TableName: plane.table.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': `TRANSCRIPT#${session}` },
        }),
      );
      plane.destroy();
      return Items.map((item) => item.expires_at as number | undefined);
    };
    const before = Math.floor(Date.now() / 1000);
    const kept = await expiries({ HOOKGATE_TRANSCRIPT_RETENTION_DAYS: '90' }, `retained-${randomUUID()}`);
    expect(kept).toHaveLength(2); // META and the message
    for (const at of kept) expect(at! - before).toBeGreaterThanOrEqual(90 * 86_400);
    for (const at of kept) expect(at! - before).toBeLessThan(90 * 86_400 + 120);
    expect(await expiries({}, `forever-${randomUUID()}`)).toEqual([undefined, undefined]);
    expect(() => loadDeploymentConfig({ HOOKGATE_TRANSCRIPT_RETENTION_DAYS: '3651' }, { runtime: 'aws' })).toThrow(
      /HOOKGATE_TRANSCRIPT_RETENTION_DAYS must be a whole number of days from 1 to 3650/,
    );
    expect(() => loadDeploymentConfig({ HOOKGATE_TRANSCRIPT_RETENTION_DAYS: '0' }, { runtime: 'aws' })).toThrow(
      /HOOKGATE_TRANSCRIPT_RETENTION_DAYS/,
    );
  });
});

describe('the turn λ wiring (functions/turn.ts → createTurnFunction)', () => {
  it('builds from the environment, runs a turn on the configured model and replies through the platform API', async () => {
    const env = modelAndTelegram({ HOOKGATE_MODEL_API_KEY: 'sk-test-key-for-the-fake', TELEGRAM_SECRET_TOKEN: 'secret' });
    const handler = await turnHandler(env);
    model.script({ content: 'hi from the model' });
    const message = telegramMessage('42', '1', 'hello');
    const record = { messageId: randomUUID(), body: JSON.stringify(message) };
    const out = await handler({ Records: [record] } as never);
    expect(out.batchItemFailures).toEqual([]);
    expect(model.requests[0]!.body.model).toBe('gpt-test');
    expect(model.requests[0]!.headers.authorization).toBe('Bearer sk-test-key-for-the-fake');
    expect(sent).toEqual([{ path: '/bot123:abc/sendMessage', body: { chat_id: '42', text: 'hi from the model' } }]);

    // SQS delivers the same message again (its delete was lost): acknowledged, not run, not answered twice.
    const again = await handler({ Records: [record] } as never);
    expect(again.batchItemFailures).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });

  it("keeps an image the chat sent in the payload bucket and reads it back for the model, as the turn λ's role allows", async () => {
    // Both S3 calls go through the grant check (s3:PutObject and s3:GetObject under payloads/attachments/).
    const env = modelAndTelegram();
    const handler = await turnHandler(env);
    const asked = model.requests.length;
    model.script({ content: 'a dot' });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const message = telegramMessage('45', '45', 'what is this?', {
      attachments: [
        { kind: 'image', mime_type: 'image/png', size: 68, name: 'dot.png', source: { platform: 'local', data_base64: png } },
      ],
    });
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never);
    expect(out.batchItemFailures).toEqual([]);
    expect(JSON.stringify(model.requests[asked]!.body)).toContain(`data:image/png;base64,${png}`);
    expect(sent.find((m) => m.body.chat_id === '45')?.body.text).toBe('a dot');
  });

  it("never drops a body it cannot read (a newer gateway's, mid-deploy): a batch item failure, so SQS retries it, then keeps it in the DLQ", async () => {
    const handler = await turnHandler({ HOOKGATE_HOME: home.path });
    for (const body of ['{"v":1,"kind":"nonsense"}', '{"v":2,"kind":"message"}', '{"v":1,"kind":"timer"}', 'not json', 'null']) {
      const out = await handler({ Records: [{ messageId: 'm1', body }] } as never);
      expect([body, out.batchItemFailures]).toEqual([body, [{ itemIdentifier: 'm1' }]]);
    }
  });

  it('wraps a turn up before the Lambda deadline instead of being cut off: the late model answer is not awaited', async () => {
    const env = modelAndTelegram({ TELEGRAM_SECRET_TOKEN: 'secret' });
    const handler = await turnHandler(env);
    model.script({ content: 'too late', delayMs: 20_000 });
    const message = telegramMessage('43', '2', 'hello');
    // 10.5 s left: the turn has 0.5 s before it must wrap up (DEADLINE_MARGIN_MS = 10 s).
    const context = { getRemainingTimeInMillis: () => 10_500 };
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never, context);
    expect(out.batchItemFailures).toEqual([]); // acknowledged: a redelivery would run the turn again
    const reply = sent.find((m) => m.body.chat_id === '43');
    expect(reply?.body.text).toMatch(/^Sorry, the model could not be reached/);
    expect(model.remaining()).toBe(0); // the one scripted (slow) answer was asked for, not retried
  });

  it('replies with the reply secret alone, and runs no chat tool in its own process when no tools function is configured', async () => {
    const proof = join(home.path, 'ran-in-the-turn-function');
    // What the turn λ gets in AWS: the reply secret's keys, not the gateway's (no TELEGRAM_SECRET_TOKEN).
    const env = modelAndTelegram();
    const handler = await turnHandler(env);
    model.script({ tool_calls: [{ name: 'terminal', arguments: { command: `touch ${proof}` } }] }, { content: 'after the tool' });
    const message = telegramMessage('44', '3', 'run it');
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never);
    expect(out.batchItemFailures).toEqual([]);
    expect(existsSync(proof)).toBe(false);
    const toolResult = model.requests.at(-1)!.body.messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toMatch(
      /no tool sandbox in this deployment: HOOKGATE_TOOLS_FUNCTION_NAME and HOOKGATE_WORKSPACE_BUCKET not set/,
    );
    expect(sent.find((m) => m.body.chat_id === '44')?.body.text).toBe('after the tool');
  });
});

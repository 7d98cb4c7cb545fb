import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { mountConsoleWhenEnabled } from '../../src/console/mount-lambda-console.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { createGatewayFunction } from '../../src/runtime/gateway-function.ts';
import { onEmulators } from '../runtime/support/on-emulators.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../../src/pipeline/data-plane.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { startTestAws } from '../support/local-aws.ts';
import { until } from '../support/until.ts';
import { recordingEngine } from '../gateway/support/recording-engine.ts';

const TOKEN = 'console-test-token-0123456789';
let aws: RunningEmulators;
let fake: FakePlatforms;
let home: string;
let sqs: SQSClient;

beforeAll(async () => {
  aws = await startTestAws();
  fake = await startFakePlatforms();
  home = await mkdtemp(join(tmpdir(), 'hookgate-lambda-console-'));
  await mkdir(join(home, 'plugins', 'audit'), { recursive: true });
  await writeFile(join(home, 'plugins', 'audit', 'plugin.yaml'), 'name: audit\nversion: 1.0.0\n');
  await writeFile(join(home, 'plugins', 'audit', 'index.ts'), 'export function register() {}\n');
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled:\n    - audit\n');
  sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
});
afterAll(async () => {
  sqs?.destroy();
  await fake?.close();
  await aws?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** The deployed gateway's environment (as the stack sets it), plus `extra`. */
function lambdaEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    AWS_LAMBDA_FUNCTION_NAME: 'gateway',
    [RESOURCE_ENV.deploymentVersion]: 'console-test',
    TELEGRAM_BOT_TOKEN: '1:console',
    TELEGRAM_SECRET_TOKEN: 'sekret',
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    HOOKGATE_REPLY_ATTEMPTS: '1',
    HOOKGATE_LOG_LEVEL: 'silent',
    HOOKGATE_HOME: home,
    [RESOURCE_ENV.turnsDlqUrl]: aws.turnsDlqUrl,
    [RESOURCE_ENV.turnsQueueUrl]: aws.turnsQueueUrl,
    [RESOURCE_ENV.eventsDlqUrl]: aws.eventsDlqUrl,
    [RESOURCE_ENV.eventsQueueUrl]: aws.eventsQueueUrl,
    ...extra,
  };
}

async function gateway(env: NodeJS.ProcessEnv): Promise<Hono> {
  // As functions/gateway.ts builds it, with the emulators standing in for the stack's resource variables.
  const runtime = createRuntime(onEmulators(loadDeploymentConfig(env, { runtime: 'aws' }), aws), {
    createEngine: () => recordingEngine(),
    ...(env.HOOKGATE_HOME ? { engineOptions: { home: env.HOOKGATE_HOME } } : {}),
  });
  const { app } = await createGatewayFunction(runtime, { mount: mountConsoleWhenEnabled });
  return app;
}

// The Function URL's own host name: the AWS console does not look at Host, only at the token.
const HOST = { host: 'abc.lambda-url.us-east-1.on.aws' };
const bearer = (token: string) => ({ ...HOST, authorization: `Bearer ${token}` });

describe('the console in the deployed gateway', () => {
  it('is off by default: no /console route at all', async () => {
    const app = await gateway(lambdaEnv({ HOOKGATE_API_TOKEN: TOKEN }));
    for (const path of ['/console', '/console/', '/console/app.js', '/console/api/sessions', '/console/events']) {
      expect((await app.request(path, { headers: bearer(TOKEN) })).status, path).toBe(404);
    }
  });

  it('reads HOOKGATE_CONSOLE as a flag, and refuses a malformed one at cold start', () => {
    expect(loadDeploymentConfig(lambdaEnv({ HOOKGATE_CONSOLE: '1' })).console).toBe(true);
    expect(loadDeploymentConfig(lambdaEnv({ HOOKGATE_CONSOLE: 'true' })).console).toBe(true);
    expect(loadDeploymentConfig(lambdaEnv({ HOOKGATE_CONSOLE: '0' })).console).toBeUndefined();
    expect(loadDeploymentConfig(lambdaEnv()).console).toBeUndefined();
    expect(() => loadDeploymentConfig(lambdaEnv({ HOOKGATE_CONSOLE: 'yes' }))).toThrow(/HOOKGATE_CONSOLE/);
  });

  it('stays off when enabled without HOOKGATE_API_TOKEN', async () => {
    const app = await gateway(lambdaEnv({ HOOKGATE_CONSOLE: '1' }));
    expect((await app.request('/console/', { headers: HOST })).status).toBe(404);
    expect((await app.request('/console/api/sessions', { headers: HOST })).status).toBe(404);
  });

  it('with HOOKGATE_CONSOLE=1: a page without data, and an API that needs the /v1 token', async () => {
    // What the console should show: a turn's trace (with a reply Telegram refused) and a dead observer event.
    const plane = createDataPlane(dataPlaneFromLocalAws(aws));
    const at = new Date().toISOString();
    await new DynamoTraceStore(plane.table).append(
      [
        {
          turn_id: 'turn-aws-1',
          at,
          hook: 'pre_llm_call',
          source: 'plugin',
          callback: 'audit',
          decision: 'allow',
          duration_ms: 3,
        },
        {
          turn_id: 'turn-aws-1',
          at,
          hook: 'reply',
          source: 'platform',
          callback: 'telegram:55',
          decision: 'undelivered: telegram reply failed: HTTP 502',
          duration_ms: 0,
          text: 'the answer you missed',
          reply_to: { platform: 'telegram', chat_id: '55', thread_id: '' },
        },
      ],
      'session-aws-1',
    );
    plane.destroy();
    const dead = JSON.stringify({ v: 1, id: 'evt-dead-1', type: 'post_tool_call', payload: {} });
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.eventsDlqUrl, MessageBody: dead }));

    const app = await gateway(lambdaEnv({ HOOKGATE_CONSOLE: '1', HOOKGATE_API_TOKEN: TOKEN }));

    // The page and its script are served to anyone, and carry no data.
    const page = await app.request('/console/', { headers: HOST });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-mode="aws"');
    expect(html).not.toContain('session-aws-1');
    expect(html).not.toContain(home);
    expect(html).not.toContain('chat-form'); // the chat box is dev-only
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await app.request('/console/app.js', { headers: HOST })).status).toBe(200);

    // Every API route and the event stream: 401 without the token and with a wrong one.
    const routes: [string, RequestInit?][] = [
      ['/console/api/sessions'],
      ['/console/api/turns/turn-aws-1'],
      ['/console/api/undelivered'],
      ['/console/api/dlq'],
      ['/console/api/hooks'],
      ['/console/api/dlq/replay', { method: 'POST', body: '{"queue":"events"}' }],
      ['/console/api/undelivered/retry', { method: 'POST', body: '{"id":"x"}' }],
      ['/console/events'],
    ];
    for (const [path, init] of routes) {
      const none = await app.request(path, { ...init, headers: { ...HOST, 'content-type': 'application/json' } });
      expect(none.status, `${path} without a token`).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('Bearer');
      const wrong = await app.request(path, { ...init, headers: { ...bearer(`${TOKEN}x`), 'content-type': 'application/json' } });
      expect(wrong.status, `${path} with a wrong token`).toBe(401);
      // The dev console's header is no substitute for the token.
      const header = await app.request(path, {
        ...init,
        headers: { ...HOST, 'x-hookgate-console': '1', 'content-type': 'application/json' },
      });
      expect(header.status, `${path} with only the dev header`).toBe(401);
    }

    // With the token: the data.
    const get = async (path: string) => {
      const res = await app.request(path, { headers: bearer(TOKEN) });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.json() as Promise<any>;
    };
    expect(await get('/console/api/sessions')).toEqual([
      { session_id: 'session-aws-1', turns: [{ turn_id: 'turn-aws-1', at }], last_at: at },
    ]);
    expect((await get('/console/api/turns/turn-aws-1')).map((r: { hook: string }) => r.hook)).toEqual(['pre_llm_call', 'reply']);
    const [undelivered] = await get('/console/api/undelivered');
    expect(undelivered).toMatchObject({
      platform: 'telegram',
      chat_id: '55',
      turn_id: 'turn-aws-1',
      session_id: 'session-aws-1',
      excerpt: 'the answer you missed',
      delivered_at: null,
    });
    const hooks = await get('/console/api/hooks');
    expect(hooks.plugins).toEqual([expect.objectContaining({ name: 'audit', enabled: true })]);
    let queues: { queue: string; messages: { id: string | null }[] }[] = [];
    await until(async () => {
      queues = await get('/console/api/dlq');
      return queues.find((q) => q.queue === 'events')?.messages.length === 1;
    }, 'the dead event in the console');
    expect(queues.map((q) => q.queue)).toEqual(['turns', 'events']); // no timers DLQ in this environment
    expect(queues.find((q) => q.queue === 'events')!.messages[0]!.id).toBe('evt-dead-1');
    // Listed by id, type and counts only: a body can hold a user's text and a reply target's token.
    expect(queues.find((q) => q.queue === 'events')!.messages[0]).not.toHaveProperty('body');

    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: 'POST',
        headers: { ...bearer(TOKEN), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // A queue this deployment did not give the console is a 400, not a crash.
    expect((await post('/console/api/dlq/replay', { queue: 'timers' })).status).toBe(400);
    const replay = await post('/console/api/dlq/replay', { queue: 'events', id: 'evt-dead-1' });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ replayed: 1 });

    // Retry goes through the gateway's replier to the chat.
    const before = fake.received('/telegram/').length;
    const retry = await post('/console/api/undelivered/retry', { id: undelivered.id });
    expect(retry.status).toBe(200);
    expect(
      fake
        .received('/telegram/')
        .slice(before)
        .map((r) => r.json),
    ).toEqual([expect.objectContaining({ chat_id: '55', text: 'the answer you missed' })]);

    // No live stream in AWS (and no shell-hook approve / revoke: consent ships with the deployment).
    expect((await app.request('/console/events', { headers: bearer(TOKEN) })).status).toBe(404);
    expect((await post('/console/api/hooks/approve', { event: 'pre_tool_call', command: '/bin/true' })).status).toBe(404);
  });
});

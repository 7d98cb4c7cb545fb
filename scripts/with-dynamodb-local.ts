import { spawn } from 'node:child_process';
import { startDynamoDbLocal } from './dynamodb-local.ts';

/**
 * `tsx scripts/with-dynamodb-local.ts <command> [args…]`: runs the command with
 * HOOKGATE_TEST_DYNAMODB_ENDPOINT pointing at a fresh DynamoDB Local, then stops it and
 * exits with the command's status. The CI fidelity run uses it (.ci/run).
 */
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: with-dynamodb-local <command> [args…]\n');
  process.exit(2);
}
const ddb = await startDynamoDbLocal();
process.stderr.write(`DynamoDB Local on ${ddb.endpoint}\n`);
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, HOOKGATE_TEST_DYNAMODB_ENDPOINT: ddb.endpoint },
});
const code = await new Promise<number>((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await ddb.stop();
process.exit(code);

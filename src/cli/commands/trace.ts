import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { readDevEndpoints } from '../../local/dev-endpoints.ts';
import { createDynamoTable } from '../../store/dynamo-table.ts';
import { DynamoTraceStore, type TraceRecord } from '../../store/trace-store.ts';
import type { CommandInstaller } from '../main.ts';
import { describeHookgateStack } from '../stack-resources.ts';

interface TraceOptions {
  table?: string;
  stack?: string;
  home?: string;
  json?: boolean;
}

/** Where the trace table is: `--table` (deployed; standard credentials) or the running `hookgate dev` of the home. */
async function traceStoreFor(options: TraceOptions): Promise<{ store: DynamoTraceStore; client: DynamoDBClient; via: string }> {
  const tableName = options.table ?? (options.stack ? (await describeHookgateStack(options.stack)).tableName : undefined);
  if (options.stack && !tableName) throw new Error(`stack ${options.stack} has no table`);
  if (tableName) {
    const client = new DynamoDBClient({});
    return { store: new DynamoTraceStore(createDynamoTable({ tableName, client })), client, via: `table ${tableName}` };
  }
  const home = options.home ?? resolveHooksHome();
  const dev = await readDevEndpoints(home);
  if (!dev) throw new Error(`no running hookgate dev for ${home}; start one, or pass --table NAME for a deployed stack's table`);
  const client = new DynamoDBClient({ endpoint: dev.dynamodbEndpoint, region: dev.region, credentials: dev.credentials });
  return { store: new DynamoTraceStore(createDynamoTable({ tableName: dev.tableName, client })), client, via: `hookgate dev (${home})` };
}

/**
 * Fixed-width columns: hook, source, callback, decision, duration; then the text of every
 * reply the platform never took, in full.
 */
export function formatTrace(records: readonly TraceRecord[]): string {
  const rows = [
    ['HOOK', 'SOURCE', 'CALLBACK', 'DECISION', 'DURATION'],
    ...records.map((r) => [r.hook, r.source, r.callback, r.decision.replace(/\s+/g, ' ').slice(0, 80), `${r.duration_ms} ms`]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const table = rows.map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  ')).join('\n');
  const undelivered = records
    .filter((r) => r.text !== undefined)
    .map((r) => `\nundelivered reply to ${r.callback} (${r.at}):\n${r.text!.replace(/^/gm, '  ')}`);
  return [table, ...undelivered].join('\n');
}

/**
 * `hookgate trace <turn_id> [--table NAME | --stack NAME] [--home DIR] [--json]`: every hook call of one
 * turn — hook, source (plugin / shell / gateway hook), callback, decision, duration.
 *
 * @example
 * const installers: CommandInstaller[] = [installTraceCommand];
 */
export const installTraceCommand: CommandInstaller = (program) => {
  program
    .command('trace')
    .description("print one turn's hook calls: hook, source, callback, decision, duration")
    .argument('<turn_id>', 'the turn id (turn_…), as in hook kwargs and logs')
    .option('--table <name>', "a deployed stack's DynamoDB table (standard AWS credentials)")
    .option('--stack <name>', 'a deployed stack (CloudFormation) whose table to use')
    .option('--home <dir>', 'hooks home of the running hookgate dev (default: $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes)')
    .option('--json', 'print JSON')
    .action(async (turnId: string, options: TraceOptions) => {
      let target;
      try {
        target = await traceStoreFor(options);
      } catch (error) {
        process.stderr.write(`hookgate trace: ${(error as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        const records = await target.store.list(turnId);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
        } else if (records.length === 0) {
          process.stderr.write(`hookgate trace: no hook calls recorded for ${turnId} (${target.via})\n`);
          process.exitCode = 1;
        } else {
          process.stdout.write(`${formatTrace(records)}\n${records.length} hook call(s) in ${turnId}\n`);
        }
      } catch (error) {
        process.stderr.write(`hookgate trace: ${target.via}: ${(error as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        target.client.destroy();
      }
    });
};

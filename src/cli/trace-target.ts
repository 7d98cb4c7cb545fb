import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HookgateError } from '../errors/hookgate-error.ts';
import { resolveHooksHome } from '../hooks/hooks-home.ts';
import { explicitDevHome, findRunningDev } from '../local/dev-endpoints.ts';
import { createDynamoTable, type DynamoTable } from '../store/dynamo-table.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import { DynamoTranscriptStore } from '../store/dynamo-transcript-store.ts';
import { describeHookgateStack } from './stack-resources.ts';

export interface TraceTargetOptions {
  /** A deployed stack's DynamoDB table. */
  table?: string;
  /** A deployed stack whose table to use. */
  stack?: string;
  /** The hooks home of the running `hookgate dev` (default: found, see `findRunningDev`). */
  home?: string;
}

export interface TraceTarget {
  store: DynamoTraceStore;
  /** The same table's transcripts: the stored conversation a trace record names (`kwargs_history`). */
  transcripts: DynamoTranscriptStore;
  client: DynamoDBClient;
  /** For messages: where the traces were read. */
  via: string;
  /** The hooks home of the dev whose traces these are; undefined for a deployed table. */
  devHome?: string;
}

export class TraceTargetError extends HookgateError {
  override readonly name = 'TraceTargetError';
}

/**
 * Where `hookgate trace` and `hookgate replay` read traces: `--table` or `--stack` (deployed;
 * standard credentials), else the running `hookgate dev` — of `--home`, of the default hooks
 * home, or the only one running.
 *
 * @example
 * const target = await resolveTraceTarget({});
 * try { await target.store.list(turnId); } finally { target.client.destroy(); }
 */
export async function resolveTraceTarget(
  options: TraceTargetOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TraceTarget> {
  const tableName = options.table ?? (options.stack ? (await describeHookgateStack(options.stack)).tableName : undefined);
  if (options.stack && !tableName) throw new TraceTargetError(`stack ${options.stack} has no table`);
  if (tableName) {
    const client = new DynamoDBClient({});
    return { ...storesOf(createDynamoTable({ tableName, client })), client, via: `table ${tableName}` };
  }
  const dev = await findRunningDev({ ...explicitDevHome(options.home, env), defaultHome: resolveHooksHome(env) });
  if ('why' in dev) throw new TraceTargetError(`${dev.why}; start one, or pass --table NAME for a deployed stack's table`);
  const { endpoints } = dev;
  const client = new DynamoDBClient({
    endpoint: endpoints.dynamodbEndpoint,
    region: endpoints.region,
    credentials: endpoints.credentials,
  });
  return {
    ...storesOf(createDynamoTable({ tableName: endpoints.tableName, client })),
    client,
    via: `hookgate dev (${dev.home})`,
    devHome: dev.home,
  };
}

function storesOf(table: DynamoTable): Pick<TraceTarget, 'store' | 'transcripts'> {
  return { store: new DynamoTraceStore(table), transcripts: new DynamoTranscriptStore(table) };
}

import type { HookLogger } from '../hooks/hook-logger.ts';
import type { AllowlistStore } from '../hooks/shell/consent/allowlist-store.ts';
import { createFileAllowlistStore } from '../hooks/shell/consent/file-allowlist-store.ts';
import { createDynamoTable } from '../store/dynamo-table.ts';
import { DynamoAllowlistStore } from '../store/dynamo-allowlist-store.ts';
import { describeHookgateStack, StackLookupError } from './stack-resources.ts';

export interface AllowlistTargetOptions {
  /** The hooks home; its `shell-hooks-allowlist.json` is the default store. */
  home: string;
  logger: HookLogger;
  /** A deployed stack's DynamoDB table (added by the data-plane work). */
  table?: string;
  /** A deployed stack whose table to use (added by the data-plane work). */
  stack?: string;
}

/**
 * The allowlist the `hookgate hooks` commands read and write. One function, so that the
 * DynamoDB targets (`--table` / `--stack`) slot in here.
 *
 * @example
 * const allowlist = await resolveAllowlistStore({ home: resolveHooksHome(), logger });
 */
export async function resolveAllowlistStore(options: AllowlistTargetOptions): Promise<AllowlistStore> {
  // --table NAME / --stack NAME: the deployed stack's DynamoDB allowlist (a Lambda has no TTY
  // to prompt on). Standard credential chain; AWS_ENDPOINT_URL_DYNAMODB etc. are honoured.
  let tableName = options.table;
  if (!tableName && options.stack) {
    tableName = (await describeHookgateStack(options.stack)).tableName;
    if (!tableName) throw new StackLookupError(`stack ${options.stack} has no hookgate table`);
  }
  if (tableName) return new DynamoAllowlistStore(createDynamoTable({ tableName }), { logger: options.logger });
  return createFileAllowlistStore(options.home, options.logger);
}

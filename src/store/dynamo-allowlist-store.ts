import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AllowlistEntry, AllowlistStore } from '../hooks/shell/consent/allowlist-store.ts';
import { createStderrLogger, type HookLogger } from '../hooks/hook-logger.ts';
import { isConditionFailed, queryPartition, type DynamoTable } from './dynamo-table.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * Key design — the shell-hook consent records of a deployed stack (hook-semantics §3.9):
 *   PK = `ALLOWLIST` (or `ALLOWLIST#<scope>`), SK = `SEQ`: next_seq, an atomic counter (ADD)
 *     giving stored order.
 *   PK = same, SK = `ENTRY#<JSON [event, command]>`: one item per (event, command):
 *     event, command, approved_at, script_mtime_at_approval, script_sha256_at_approval, seq.
 * One partition, read with one Query (a handful of entries). Re-approval puts the same key
 * with a newer seq, so the entry moves to the end of `list()`; the put is conditioned on
 * the stored seq being older, so a slow older write never overwrites a newer approval.
 * No TTL: consent lasts until revoked.
 *
 * @example
 * const allowlist = new DynamoAllowlistStore(table);
 * await allowlist.record({ event: 'pre_tool_call', command: '/hooks/check.sh', approved_at, script_mtime_at_approval: null });
 */
export class DynamoAllowlistStore implements AllowlistStore {
  readonly location: string;
  private readonly logger: HookLogger;
  private readonly pk: string;

  /** `scope` keeps several independent allowlists in one table (tests; one table, many homes). */
  constructor(
    private readonly table: DynamoTable,
    options: { logger?: HookLogger; scope?: string } = {},
  ) {
    this.logger = options.logger ?? createStderrLogger();
    this.pk = options.scope ? `ALLOWLIST#${options.scope}` : 'ALLOWLIST';
    this.location = `dynamodb://${table.tableName}${options.scope ? `#${options.scope}` : ''}`;
  }

  async find(event: string, command: string): Promise<AllowlistEntry | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.tableName, Key: this.entryKey(event, command), ConsistentRead: true }),
    );
    return Item ? toEntry(Item) : undefined;
  }

  async list(): Promise<AllowlistEntry[]> {
    const items = await this.entryItems();
    return items
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map(toEntry)
      .filter((entry): entry is AllowlistEntry => entry !== undefined);
  }

  async record(entry: AllowlistEntry): Promise<boolean> {
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: this.pk, SK: 'SEQ' },
          UpdateExpression: 'ADD next_seq :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const seq = Number(Attributes?.next_seq);
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            ...this.entryKey(entry.event, entry.command),
            event: entry.event,
            command: entry.command,
            approved_at: entry.approved_at,
            script_mtime_at_approval: entry.script_mtime_at_approval,
            ...(entry.script_sha256_at_approval !== undefined
              ? { script_sha256_at_approval: entry.script_sha256_at_approval }
              : {}),
            seq,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR seq < :seq',
          ExpressionAttributeValues: { ':seq': seq },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return true; // a newer approval of the same entry is already stored
      this.logger.warn(`Failed to persist shell hook allowlist to ${this.location}: ${errorText(error)}`);
      return false;
    }
  }

  async revoke(command: string): Promise<number> {
    let removed = 0;
    for (const item of await this.entryItems()) {
      if (item.command !== command) continue;
      await this.table.doc.send(new DeleteCommand({ TableName: this.table.tableName, Key: { PK: item.PK, SK: item.SK } }));
      removed++;
    }
    return removed;
  }

  private async entryItems(): Promise<Record<string, unknown>[]> {
    return queryPartition(this.table, this.pk, 'ENTRY#');
  }

  private entryKey(event: string, command: string) {
    return { PK: this.pk, SK: `ENTRY#${JSON.stringify([event, command])}` };
  }
}

function toEntry(item: Record<string, unknown>): AllowlistEntry | undefined {
  if (typeof item.event !== 'string' || typeof item.command !== 'string' || typeof item.approved_at !== 'string') {
    return undefined;
  }
  const mtime = item.script_mtime_at_approval;
  const entry: AllowlistEntry = {
    event: item.event,
    command: item.command,
    approved_at: item.approved_at,
    script_mtime_at_approval: typeof mtime === 'string' ? mtime : null,
  };
  const sha = item.script_sha256_at_approval;
  return sha === undefined ? entry : { ...entry, script_sha256_at_approval: typeof sha === 'string' ? sha : null };
}

import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../validation/zod.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import type { DynamoTable } from './dynamo-table.ts';

/** `TRACE_RECENT#<YYYY-MM-DD>#<shard>`: the recent-turns index by day, in shards. */
export const TRACE_RECENT_PREFIX = 'TRACE_RECENT#';

/**
 * Shards of one day of the recent-turns index. One partition key takes about 1,000 writes a
 * second (docs/capacity.md); a turn writes one index item, so a single day key would cap the
 * whole deployment near 1,000 turn invocations a second. Eight keys lift that to about 8,000,
 * and a console listing costs eight small Queries a day instead of one. Changing the count
 * later is safe for writes but readers must then query every count ever used: keep it fixed.
 */
export const TRACE_RECENT_SHARDS = 8;

/** The cursor of a recent-turns entry was not one this index hands out. */
export class RecentTurnsCursorError extends HookgateError {
  override readonly name = 'RecentTurnsCursorError';
}

/** The index's sort key, `TURN#<at ISO>#<invocation id>`, is also the listing's cursor. */
const CursorSchema = z.string().check(z.regex(/^TURN#\d{4}-\d{2}-\d{2}T[^#]*#[^#]+$/));

/**
 * The shard of a turn: from a hash of its id, so every invocation of one turn (a resumed turn
 * writes one entry per invocation) lands in the same shard, and turns spread evenly.
 *
 * @example
 * recentTurnsShard('turn_1'); // 0..7
 */
export function recentTurnsShard(turnId: string): number {
  return createHash('sha1').update(turnId).digest().readUInt32BE(0) % TRACE_RECENT_SHARDS;
}

/**
 * The partition key an entry of `turnId` starting at `at` (ISO) is written under.
 *
 * @example
 * recentTurnsKey('2026-12-04T10:00:00.000Z', 'turn_1'); // 'TRACE_RECENT#2026-12-04#5'
 */
export function recentTurnsKey(at: string, turnId: string): string {
  return `${TRACE_RECENT_PREFIX}${at.slice(0, 10)}#${recentTurnsShard(turnId)}`;
}

/**
 * Every partition key of one day a reader has to query: the shards, and the unsharded
 * `TRACE_RECENT#<day>` that tables written before the shards still hold until their TTL.
 */
export function recentTurnsDayKeys(day: string): string[] {
  return [
    `${TRACE_RECENT_PREFIX}${day}`,
    ...Array.from({ length: TRACE_RECENT_SHARDS }, (_, shard) => `${TRACE_RECENT_PREFIX}${day}#${shard}`),
  ];
}

/** Checks a cursor from outside (a console query string, a CLI flag) before it reaches a key condition. */
export function parseRecentTurnsCursor(cursor: string): string {
  const parsed = CursorSchema.safeParse(cursor);
  if (!parsed.success) throw new RecentTurnsCursorError(`not a recent-turns cursor: ${JSON.stringify(cursor.slice(0, 80))}`);
  return parsed.data;
}

/** One partition being read newest first, a page at a time. */
interface PartitionReader {
  pk: string;
  buffer: Record<string, unknown>[];
  next?: Record<string, unknown>;
  done: boolean;
}

/** Items read per Query at most: enough for a console page, small enough that eight shards over-read little. */
const PAGE_ITEMS = 100;

/**
 * The entries of one day, newest first (by sort key), at most `limit`, only those older than
 * `before` (a sort key) when given: every partition of the day (`recentTurnsDayKeys`) read
 * newest first a page at a time and merged, so no more than a page per partition is read
 * beyond what is returned.
 *
 * @example
 * const items = await queryRecentTurnsDay(table, '2026-12-04', { limit: 50 });
 */
export async function queryRecentTurnsDay(
  table: DynamoTable,
  day: string,
  options: { limit: number; before?: string },
): Promise<Record<string, unknown>[]> {
  const readers: PartitionReader[] = recentTurnsDayKeys(day).map((pk) => ({ pk, buffer: [], done: false }));
  const out: Record<string, unknown>[] = [];
  const fill = async (reader: PartitionReader, want: number) => {
    if (reader.buffer.length > 0 || reader.done) return;
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: options.before === undefined ? 'PK = :pk' : 'PK = :pk AND SK < :before',
        ExpressionAttributeValues:
          options.before === undefined ? { ':pk': reader.pk } : { ':pk': reader.pk, ':before': options.before },
        ScanIndexForward: false,
        Limit: Math.min(want, PAGE_ITEMS),
        ...(reader.next ? { ExclusiveStartKey: reader.next } : {}),
      }),
    );
    reader.buffer = page.Items ?? [];
    reader.next = page.LastEvaluatedKey;
    reader.done = reader.next === undefined;
  };
  while (out.length < options.limit) {
    const want = options.limit - out.length;
    await Promise.all(readers.map((reader) => fill(reader, want)));
    // A partition that answered an empty page but has more may hold the newest entry: read it again first.
    if (readers.some((reader) => reader.buffer.length === 0 && !reader.done)) continue;
    let newest: PartitionReader | undefined;
    for (const reader of readers) {
      const head = reader.buffer[0];
      if (head !== undefined && (newest === undefined || String(head.SK) > String(newest.buffer[0]!.SK))) newest = reader;
    }
    if (newest === undefined) break; // every partition read to its end
    out.push(newest.buffer.shift()!);
  }
  return out;
}

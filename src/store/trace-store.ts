import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, queryPartition, type DynamoTable } from './dynamo-table.ts';

/** One hook call of a turn, for `hookgate trace <turn_id>`. */
export interface TraceRecord {
  readonly turn_id: string;
  /** ISO-8601 time the call started. */
  readonly at: string;
  /** Plugin-hook name or gateway event type. */
  readonly hook: string;
  /** `plugin`, `shell` or `gateway` for one callback; `-` when nobody ran inline. */
  readonly source: string;
  /** Callback name, `shell_hook[<event>:<command>]`, the gateway hook's name, or `-`. */
  readonly callback: string;
  /** What came of it: `allow`, `block: <msg>`, `context (N chars)`, `replaced`, `unchanged`, `emitted`, `error: …`. */
  readonly decision: string;
  readonly duration_ms: number;
  /** The text of a reply the platform never took (hook `reply`, decision `undelivered: …`). */
  readonly text?: string;
  /** Where that reply was going (without the target's `extra`, which may be a credential). */
  readonly reply_to?: { readonly platform: string; readonly chat_id: string; readonly thread_id: string };
  /** The call's kwargs as JSON, cut at {@link TRACE_DETAIL_CHARS} (the console shows them on demand). */
  readonly kwargs?: string;
  /** This callback's raw return value (or error) as JSON, cut the same way. */
  readonly result?: string;
}

/** The partition of the undelivered-reply index (see the key design below). */
export const UNDELIVERED_REPLY_PK = 'UNDELIVERED_REPLY';
/** `TRACE_RECENT#<YYYY-MM-DD>`: the recent-turns index by day. */
export const TRACE_RECENT_PREFIX = 'TRACE_RECENT#';

/** A kept reply (undelivered-reply.ts in the turn runtime) that says where it was going. */
function isUndeliveredReply(record: TraceRecord): record is TraceRecord & { text: string; reply_to: NonNullable<TraceRecord['reply_to']> } {
  return record.hook === 'reply' && record.decision.startsWith('undelivered: ') && typeof record.text === 'string' && record.reply_to !== undefined;
}

/** How much of a call's kwargs and result a trace record keeps. */
export const TRACE_DETAIL_CHARS = 2000;

export interface TraceStore {
  /**
   * Appends the records of one handler invocation of a turn (a resumed turn appends more).
   * With `sessionId`, the turn is also indexed under its session (for `listSession`).
   */
  append(records: readonly TraceRecord[], sessionId?: string): Promise<void>;
  /** Every record of a turn, in call order. */
  list(turnId: string): Promise<TraceRecord[]>;
  /** Every record of the turns indexed under a session, oldest turn first (plugin commands such as `/metrics`). */
  listSession(sessionId: string): Promise<TraceRecord[]>;
}

/**
 * Key design (single table, beside the other stores' prefixes in dynamo-table.ts):
 *   PK = `TRACE#<turn id>`, SK = `RUN#<at ISO>#<invocation id>#<seq, 6 digits>`: one item per
 *     record. The SK sorts by time, then by call order inside one invocation, so a turn
 *     resumed in a later invocation lists after its first part.
 *   PK = `TRACE_SESSION#<session id>`, SK = `TURN#<at ISO>#<invocation id>`, attribute turn_id:
 *     one item per invocation of a turn, written in the same batch as its records, so the
 *     turns of a session are one query away (`listSession`).
 *   PK = `TRACE_RECENT#<YYYY-MM-DD>`, SK = `TURN#<at ISO>#<invocation id>`, attributes
 *     session_id, turn_id: the same index by day, so the console lists recent sessions with a
 *     Query instead of a Scan (one partition per day keeps it from growing without bound).
 *   PK = `UNDELIVERED_REPLY`, SK = `<at ISO>#<turn id>#<invocation id>#<seq>`: one item per
 *     reply the platform never took (undelivered-reply-store.ts reads and settles them).
 *   expires_at (TTL) = written + 7 days; traces are for debugging, not an audit log.
 *
 * @example
 * const traces = new DynamoTraceStore(table);
 * await traces.append(records);
 * for (const r of await traces.list(turnId)) console.log(r.hook, r.source, r.decision);
 */
export class DynamoTraceStore implements TraceStore {
  static readonly RETAIN_SECONDS = 7 * 86_400;
  private invocation = 0;

  constructor(private readonly table: DynamoTable) {}

  async append(records: readonly TraceRecord[], sessionId?: string): Promise<void> {
    if (records.length === 0) return;
    const invocation = `${process.pid.toString(36)}${(++this.invocation).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const first = records[0]!.at;
    const expires = epochSeconds(new Date()) + DynamoTraceStore.RETAIN_SECONDS;
    const items: { PutRequest: { Item: Record<string, unknown> } }[] = records.map((record, seq) => ({
      PutRequest: {
        Item: { PK: `TRACE#${record.turn_id}`, SK: `RUN#${first}#${invocation}#${String(seq).padStart(6, '0')}`, ...record, expires_at: expires },
      },
    }));
    if (sessionId) {
      const turn_id = records[0]!.turn_id;
      items.push(
        { PutRequest: { Item: { PK: `TRACE_SESSION#${sessionId}`, SK: `TURN#${first}#${invocation}`, turn_id, expires_at: expires } } },
        { PutRequest: { Item: { PK: `${TRACE_RECENT_PREFIX}${first.slice(0, 10)}`, SK: `TURN#${first}#${invocation}`, session_id: sessionId, turn_id, expires_at: expires } } },
      );
    }
    records.forEach((record, seq) => {
      if (!isUndeliveredReply(record)) return;
      const { platform, chat_id, thread_id } = record.reply_to;
      const item = { turn_id: record.turn_id, at: record.at, session_id: sessionId ?? '', platform, chat_id, thread_id, text: record.text, error: record.decision.slice('undelivered: '.length) };
      items.push({ PutRequest: { Item: { PK: UNDELIVERED_REPLY_PK, SK: `${record.at}#${record.turn_id}#${invocation}#${String(seq).padStart(6, '0')}`, ...item, expires_at: expires } } });
    });
    for (let start = 0; start < items.length; start += 25) {
      let pending: typeof items = items.slice(start, start + 25);
      for (let attempt = 0; pending.length > 0; attempt++) {
        const out = await this.table.doc.send(new BatchWriteCommand({ RequestItems: { [this.table.tableName]: pending } }));
        pending = (out.UnprocessedItems?.[this.table.tableName] ?? []) as typeof items;
        if (pending.length > 0) {
          if (attempt >= 5) throw new Error(`trace: ${pending.length} records could not be written`);
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    }
  }

  async listSession(sessionId: string): Promise<TraceRecord[]> {
    const index = await queryPartition(this.table, `TRACE_SESSION#${sessionId}`, 'TURN#');
    const turns = [...new Set(index.map((item) => String(item.turn_id)))];
    const records: TraceRecord[] = [];
    for (const turn of turns) records.push(...(await this.list(turn)));
    return records;
  }

  /**
   * The turns recorded in the last `days` days (by the day each started), newest first, at
   * most `limit`: one Query per day of the `TRACE_RECENT#` index.
   */
  async recentTurns(options: { days?: number; limit?: number; now?: Date } = {}): Promise<{ session_id: string; turn_id: string; at: string }[]> {
    const days = options.days ?? Math.ceil(DynamoTraceStore.RETAIN_SECONDS / 86_400) + 1;
    const limit = options.limit ?? 1000;
    const now = (options.now ?? new Date()).getTime();
    const turns: { session_id: string; turn_id: string; at: string }[] = [];
    for (let day = 0; day < days && turns.length < limit; day++) {
      const pk = `${TRACE_RECENT_PREFIX}${new Date(now - day * 86_400_000).toISOString().slice(0, 10)}`;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await this.table.doc.send(
          new QueryCommand({
            TableName: this.table.tableName,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': pk },
            ScanIndexForward: false,
            Limit: limit - turns.length,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          turns.push({ session_id: String(item.session_id), turn_id: String(item.turn_id), at: String(item.SK).split('#')[1] ?? '' });
        }
        start = turns.length < limit ? page.LastEvaluatedKey : undefined;
      } while (start);
    }
    return turns;
  }

  async list(turnId: string): Promise<TraceRecord[]> {
    const items = await queryPartition(this.table, `TRACE#${turnId}`, 'RUN#');
    return items.map((item) => ({
      turn_id: String(item.turn_id),
      at: String(item.at),
      hook: String(item.hook),
      source: String(item.source),
      callback: String(item.callback),
      decision: String(item.decision),
      duration_ms: Number(item.duration_ms),
      ...(typeof item.text === 'string' ? { text: item.text } : {}),
      ...(typeof item.kwargs === 'string' ? { kwargs: item.kwargs } : {}),
      ...(typeof item.result === 'string' ? { result: item.result } : {}),
    }));
  }
}

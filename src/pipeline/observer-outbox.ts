import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { HookgateError } from '../errors/hookgate-error.ts';
import { epochSeconds, isConditionFailed, queryPartition, type DynamoTable } from '../store/dynamo-table.ts';

/** One envelope the events topic did not take, as kept in the table. */
export interface OutboxEntry {
  /** The envelope id (the consumers' dedup key: a second publish of it runs nothing twice). */
  readonly id: string;
  /** The envelope's type (the `event_type` message attribute). */
  readonly type: string;
  /** The envelope, exactly as it would have been published (ASCII JSON). */
  readonly body: string;
  /** Its session; null for events without one (gateway:startup, …). */
  readonly session_id: string | null;
}

/** An entry read back, with the sort key that orders it in its session. */
export interface StoredOutboxEntry extends OutboxEntry {
  readonly sk: string;
}

/** The partition of the pending-sessions index. */
export const OUTBOX_PENDING_PK = 'OUTBOX_PENDING';
const NO_SESSION = '-';

/**
 * The observer outbox: envelopes SNS would not take after the sink's tries, kept on the single
 * table until the sweeper publishes them (docs/reliability.md, "Observer outbox").
 *
 * Key design:
 *   PK = `OUTBOX#<session id | ->`, SK = `<ISO time>#<seq, 10 digits>#<envelope id>`: one item
 *     per envelope (`type`, `body`, `expires_at`); the SK keeps a session's envelopes in the
 *     order they were emitted (the sequence breaks ties within one millisecond of one process).
 *   PK = `OUTBOX_PENDING`, SK = `<session id | ->`, attribute `token`: one item per session with
 *     envelopes waiting, so the sweeper finds them with one Query; every put writes a new token,
 *     and the sweeper removes the entry only if the token is the one it read before finding the
 *     session empty (a put in between keeps it).
 *   expires_at (TTL) = written + 7 days: an outage longer than that loses its events, as the
 *     events queue's own retention (4 days) would.
 *
 * @example
 * const outbox = new DynamoObserverOutbox(table);
 * await outbox.put([{ id, type, body, session_id }]);
 * for (const { session } of await outbox.pendingSessions()) await outbox.listSession(session);
 */
export class DynamoObserverOutbox {
  static readonly RETAIN_SECONDS = 7 * 86_400;
  private seq = 0;

  constructor(private readonly table: DynamoTable) {}

  /** Keeps the entries, in order; resolves once every item and its session's index entry are written. */
  async put(entries: readonly OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const now = new Date();
    const expires = epochSeconds(now) + DynamoObserverOutbox.RETAIN_SECONDS;
    const token = `${now.getTime()}-${Math.random().toString(36).slice(2, 10)}`;
    const items: Record<string, unknown>[] = entries.map((entry) => ({
      PK: `OUTBOX#${entry.session_id ?? NO_SESSION}`,
      SK: `${now.toISOString()}#${String(++this.seq).padStart(10, '0')}#${entry.id}`,
      id: entry.id,
      type: entry.type,
      body: entry.body,
      expires_at: expires,
    }));
    await this.writeAll(items);
    // The index after the items: a sweep that sees the entry finds them.
    const sessions = [...new Set(entries.map((entry) => entry.session_id ?? NO_SESSION))];
    await this.writeAll(sessions.map((session) => ({ PK: OUTBOX_PENDING_PK, SK: session, token, expires_at: expires })));
  }

  /** The sessions with entries waiting, and the index token read (for `settle`). */
  async pendingSessions(): Promise<{ session: string; token: string }[]> {
    const items = await queryPartition(this.table, OUTBOX_PENDING_PK);
    return items.map((item) => ({ session: String(item.SK), token: String(item.token) }));
  }

  /** True while a session has entries waiting (its index entry exists). */
  async isPending(sessionId: string | null): Promise<boolean> {
    const out = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { PK: OUTBOX_PENDING_PK, SK: sessionId ?? NO_SESSION },
        ConsistentRead: true,
      }),
    );
    return out.Item !== undefined;
  }

  /** The oldest `limit` entries of a session, in emission order. */
  async listSession(session: string, limit = 100): Promise<StoredOutboxEntry[]> {
    const page = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `OUTBOX#${session}` },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => ({
      sk: String(item.SK),
      id: String(item.id),
      type: String(item.type),
      body: String(item.body),
      session_id: session === NO_SESSION ? null : session,
    }));
  }

  /** Removes published entries of a session. */
  async remove(session: string, sks: readonly string[]): Promise<void> {
    await this.deleteAll(sks.map((SK) => ({ PK: `OUTBOX#${session}`, SK })));
  }

  /** Drops the session's index entry if no put came since `token` was read; false when one did. */
  async settle(session: string, token: string): Promise<boolean> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: { PK: OUTBOX_PENDING_PK, SK: session },
          ConditionExpression: '#token = :token',
          ExpressionAttributeNames: { '#token': 'token' },
          ExpressionAttributeValues: { ':token': token },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  private writeAll(items: Record<string, unknown>[]): Promise<void> {
    return this.batch(items.map((Item) => ({ PutRequest: { Item } })));
  }

  private deleteAll(keys: Record<string, unknown>[]): Promise<void> {
    return this.batch(keys.map((Key) => ({ DeleteRequest: { Key } })));
  }

  private async batch(requests: Record<string, unknown>[]): Promise<void> {
    for (let start = 0; start < requests.length; start += 25) {
      let pending = requests.slice(start, start + 25);
      for (let attempt = 0; pending.length > 0; attempt++) {
        const out = await this.table.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.table.tableName]: pending as never } }),
        );
        pending = (out.UnprocessedItems?.[this.table.tableName] ?? []) as Record<string, unknown>[];
        if (pending.length > 0) {
          if (attempt >= 5) throw new OutboxWriteError(`observer outbox: ${pending.length} item(s) could not be written`);
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    }
  }
}

export class OutboxWriteError extends HookgateError {
  override readonly name = 'OutboxWriteError';
}

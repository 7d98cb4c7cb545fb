import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, type DynamoTable } from './dynamo-table.ts';
import { UNDELIVERED_REPLY_PK } from './trace-store.ts';

/** One reply the platform never took, as the trace store indexed it (`UNDELIVERED_REPLY`). */
export interface UndeliveredReply {
  /** The index item's sort key: `<at>#<turn id>#<invocation>#<seq>`. */
  readonly id: string;
  readonly turn_id: string;
  readonly session_id: string;
  /** When the reply was given up on. */
  readonly at: string;
  readonly platform: string;
  readonly chat_id: string;
  readonly thread_id: string;
  /** The whole reply, as sent (redacted: the turn's trace records pass through the redactor before they are stored). */
  readonly text: string;
  /** Why the last attempt failed (the first failure, or the last retry's). */
  readonly error: string;
  /** Set once a retry delivered it. */
  readonly delivered_at?: string;
  /** How many console retries were made. */
  readonly retries: number;
}

/** The id form: an ISO time, then `#`-separated ids (turn ids are `[A-Za-z0-9_:.-]`). */
export const UNDELIVERED_REPLY_ID = /^\d{4}-\d\d-\d\dT[0-9:.]+Z#[A-Za-z0-9_:.#-]{1,300}$/;

/** How long one retry holds its claim: a second click meanwhile does not send twice. */
const CLAIM_SECONDS = 60;

/**
 * The undelivered-reply index of the trace table: list, and settle a retry. The trace store
 * writes the items (one per kept reply, in the batch of the turn's trace); this store only
 * reads them and records what a retry did.
 *
 * @example
 * const replies = new UndeliveredReplyStore(table);
 * for (const r of await replies.list()) console.log(r.platform, r.chat_id, r.error);
 */
export class UndeliveredReplyStore {
  constructor(private readonly table: DynamoTable) {}

  /** Newest first, at most `limit`. */
  async list(limit = 100): Promise<UndeliveredReply[]> {
    const page = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': UNDELIVERED_REPLY_PK },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return (page.Items ?? []).map(fromItem);
  }

  async get(id: string): Promise<UndeliveredReply | undefined> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.tableName, Key: { PK: UNDELIVERED_REPLY_PK, SK: id }, ConsistentRead: true }),
    );
    return out.Item ? fromItem(out.Item) : undefined;
  }

  /**
   * Claims the reply for one retry: false when it is gone, already delivered, or another
   * retry holds it.
   */
  async claim(id: string, now = new Date()): Promise<boolean> {
    const seconds = Math.floor(now.getTime() / 1000);
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: UNDELIVERED_REPLY_PK, SK: id },
          UpdateExpression: 'SET retry_until = :until',
          ConditionExpression:
            'attribute_exists(PK) AND attribute_not_exists(delivered_at) AND (attribute_not_exists(retry_until) OR retry_until < :now)',
          ExpressionAttributeValues: { ':until': seconds + CLAIM_SECONDS, ':now': seconds },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  /** Records a retry's outcome and releases the claim. */
  async settle(id: string, outcome: { delivered: true; at?: Date } | { delivered: false; error: string }): Promise<void> {
    const delivered = outcome.delivered
      ? { expression: 'SET delivered_at = :at', values: { ':at': (outcome.at ?? new Date()).toISOString() } }
      : { expression: 'SET #error = :error', values: { ':error': outcome.error } };
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: { PK: UNDELIVERED_REPLY_PK, SK: id },
        UpdateExpression: `${delivered.expression}, retries = if_not_exists(retries, :zero) + :one REMOVE retry_until`,
        ConditionExpression: 'attribute_exists(PK)',
        ...(outcome.delivered ? {} : { ExpressionAttributeNames: { '#error': 'error' } }),
        ExpressionAttributeValues: { ...delivered.values, ':zero': 0, ':one': 1 },
      }),
    );
  }
}

function fromItem(item: Record<string, unknown>): UndeliveredReply {
  return {
    id: String(item.SK),
    turn_id: String(item.turn_id),
    session_id: String(item.session_id ?? ''),
    at: String(item.at),
    platform: String(item.platform),
    chat_id: String(item.chat_id),
    thread_id: String(item.thread_id ?? ''),
    text: String(item.text ?? ''),
    error: String(item.error ?? ''),
    ...(typeof item.delivered_at === 'string' ? { delivered_at: item.delivered_at } : {}),
    retries: Number(item.retries ?? 0),
  };
}

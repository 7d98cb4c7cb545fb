import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, queryPartition, type DynamoTable } from './dynamo-table.ts';

/** One message the bot sent to a local chat. */
export interface OutboxMessage {
  readonly text: string;
  /** ISO-8601. */
  readonly at: string;
}

/**
 * The bot's outbound messages of the `local` platform, read back by
 * `GET /webhooks/local/messages`. It lives in the table because the gateway and the turn
 * runtime may be different processes.
 */
export interface LocalOutboxStore {
  append(chatId: string, text: string, now?: Date): Promise<void>;
  /** Oldest first. */
  list(chatId: string): Promise<OutboxMessage[]>;
}

/**
 * Key design:
 *   PK = `OUTBOX#<chat id>`, SK = `MSG#<ISO time>#<8 random hex>`: text, at.
 *   expires_at (TTL) = now + 7 days: a local chat's history is for inspection, not keeping.
 * ISO times sort as strings, so a Query in key order is oldest first; the random suffix
 * keeps two messages in the same millisecond apart (their relative order is then arbitrary).
 *
 * @example
 * const outbox = new DynamoLocalOutboxStore(table);
 * await outbox.append('chat-1', 'You said: hi');
 * await outbox.list('chat-1'); // [{ text: 'You said: hi', at: '2026-…' }]
 */
export class DynamoLocalOutboxStore implements LocalOutboxStore {
  static readonly RETAIN_SECONDS = 7 * 86_400;

  constructor(private readonly table: DynamoTable) {}

  async append(chatId: string, text: string, now: Date = new Date()): Promise<void> {
    const at = now.toISOString();
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: `OUTBOX#${chatId}`,
          SK: `MSG#${at}#${randomBytes(4).toString('hex')}`,
          text,
          at,
          expires_at: epochSeconds(now) + DynamoLocalOutboxStore.RETAIN_SECONDS,
        },
      }),
    );
  }

  async list(chatId: string): Promise<OutboxMessage[]> {
    const items = await queryPartition(this.table, `OUTBOX#${chatId}`, 'MSG#');
    return items.map((item) => ({ text: String(item.text), at: String(item.at) }));
  }
}

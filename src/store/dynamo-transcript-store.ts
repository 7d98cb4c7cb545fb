import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SequencedMessages, TranscriptMessage, TranscriptStore } from './transcript-store.ts';
import { epochSeconds, queryPartition, type DynamoTable } from './dynamo-table.ts';
import { StoreWriteError } from './store-errors.ts';

/**
 * Key design — one item per message (or per chunk of a huge one), never one per session:
 *   PK = `TRANSCRIPT#<session id>`, SK = `META`: next_seq (atomic counter, ADD).
 *   PK = `TRANSCRIPT#<session id>`, SK = `MSG#<seq, 10 digits>#<chunk, 5 digits>`:
 *     seq, chunk, chunks (how many chunks the message has), data (a slice of the message's JSON).
 * A message's JSON is cut into slices of at most CHUNK_CHARS UTF-16 units (≤ 4 bytes each
 * in UTF-8, so every item stays far below DynamoDB's 400 KB limit). `load` reassembles
 * messages in seq order and drops a message whose chunks are not all there (an append that
 * died half-way), instead of returning a corrupt message.
 *
 * Retention: with `retentionSeconds`, every item an append writes carries `expires_at` (the
 * table's TTL attribute) that far ahead, and META's is moved forward with each append, so it
 * outlives the messages and a session idle for the whole period is forgotten entirely. An
 * active session loses only messages older than the period (a turn reads the newest ones,
 * docs/turn-runtime.md). Without it (local runs), nothing expires.
 *
 * @example
 * const transcripts = new DynamoTranscriptStore(table);
 * await transcripts.append(sessionId, [{ role: 'user', content: 'hi' }]);
 * const history = await transcripts.load(sessionId);
 * const { messages, seqs } = await transcripts.loadRecent(sessionId, { maxMessages: 100, maxChars: 120_000 });
 * const again = await transcripts.loadRange(sessionId, seqs[0]!, seqs.at(-1)!); // the same messages
 */
export class DynamoTranscriptStore implements TranscriptStore {
  /** 64 Ki UTF-16 units: at most 256 KB of UTF-8 per item. */
  static readonly CHUNK_CHARS = 65_536;

  constructor(
    private readonly table: DynamoTable,
    private readonly options: { retentionSeconds?: number; now?: () => Date } = {},
  ) {}

  async load(sessionId: string): Promise<TranscriptMessage[]> {
    return assembleMessages(await queryPartition(this.table, `TRANSCRIPT#${sessionId}`, 'MSG#')).messages;
  }

  async loadRange(sessionId: string, fromSeq: number, toSeq: number): Promise<SequencedMessages> {
    // `#` sorts before a message's first chunk key and `#~` after its last: every chunk of both ends.
    const items = await queryPartition(this.table, `TRANSCRIPT#${sessionId}`, undefined, {
      skBetween: [`MSG#${seqKey(fromSeq)}#`, `MSG#${seqKey(toSeq)}#~`],
    });
    return assembleMessages(items);
  }

  async loadRecent(sessionId: string, window: { maxMessages: number; maxChars: number }): Promise<SequencedMessages> {
    const newestFirst: { seq: number; message: TranscriptMessage }[] = [];
    let chars = 0;
    // Items come newest first, a message's chunks last-chunk first; a group ends where seq changes.
    let group: Record<string, unknown>[] = [];
    const closeGroup = () => {
      const chunks = group.reverse();
      const complete = chunks.length === Number(chunks[0]?.chunks) && chunks.every((item, n) => item.chunk === n);
      if (complete) {
        const json = chunks.map((item) => String(item.data)).join('');
        newestFirst.push({ seq: Number(chunks[0]!.seq), message: JSON.parse(json) as TranscriptMessage });
        chars += json.length;
      }
      group = [];
    };
    const oldestFirst = (): SequencedMessages => {
      const ordered = newestFirst.reverse();
      return { messages: ordered.map((m) => m.message), seqs: ordered.map((m) => m.seq) };
    };
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.tableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': `TRANSCRIPT#${sessionId}`, ':prefix': 'MSG#' },
          ScanIndexForward: false,
          ConsistentRead: true,
          // A page a little larger than the window: one query for every session of ordinary size.
          Limit: window.maxMessages + 8,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        if (group.length > 0 && group[0]!.seq !== item.seq) {
          closeGroup();
          if (newestFirst.length >= window.maxMessages || chars >= window.maxChars) return oldestFirst();
        }
        group.push(item);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    if (group.length > 0) closeGroup();
    return oldestFirst();
  }

  async append(sessionId: string, messages: readonly TranscriptMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const pk = `TRANSCRIPT#${sessionId}`;
    const retention = this.options.retentionSeconds;
    const expiry = retention === undefined ? {} : { expires_at: epochSeconds(this.options.now?.() ?? new Date()) + retention };
    // Reserve a block of sequence numbers atomically, so concurrent appends never collide.
    const { Attributes } = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: { PK: pk, SK: 'META' },
        UpdateExpression: expiry.expires_at === undefined ? 'ADD next_seq :n' : 'ADD next_seq :n SET expires_at = :e',
        ExpressionAttributeValues: {
          ':n': messages.length,
          ...(expiry.expires_at === undefined ? {} : { ':e': expiry.expires_at }),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const first = Number(Attributes?.next_seq) - messages.length;
    const items = messages.flatMap((message, n) => {
      const json = JSON.stringify(message);
      const slices = sliceJson(json, DynamoTranscriptStore.CHUNK_CHARS);
      const seq = first + n;
      return slices.map((data, chunk) => ({
        PK: pk,
        SK: `MSG#${seqKey(seq)}#${String(chunk).padStart(5, '0')}`,
        seq,
        chunk,
        chunks: slices.length,
        data,
        ...expiry,
      }));
    });
    await this.batchPut(items);
  }

  /** BatchWriteItem in 25s (and ≤ 16 MB), resending unprocessed items with backoff. */
  private async batchPut(items: Record<string, unknown>[]): Promise<void> {
    const MAX_BATCH_BYTES = 12 * 1024 * 1024;
    let batch: Record<string, unknown>[] = [];
    let bytes = 0;
    const flush = async () => {
      let requests = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
        if (attempt > 8) throw new StoreWriteError(`transcript: ${requests.length} items still unprocessed after retries`);
        const { UnprocessedItems } = await this.table.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.table.tableName]: requests } }),
        );
        requests = (UnprocessedItems?.[this.table.tableName] ?? []) as typeof requests;
      }
      batch = [];
      bytes = 0;
    };
    for (const item of items) {
      const size = String(item.data).length * 4 + 200;
      if (batch.length === 25 || bytes + size > MAX_BATCH_BYTES) await flush();
      batch.push(item);
      bytes += size;
    }
    if (batch.length > 0) await flush();
  }
}

/** Cuts `json` into slices of at most `size` units, never between the halves of a surrogate pair. */
function sliceJson(json: string, size: number): string[] {
  const slices: string[] = [];
  let at = 0;
  do {
    let end = Math.min(json.length, at + size);
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    slices.push(json.slice(at, end));
    at = end;
  } while (at < json.length);
  return slices;
}

/** A message's sequence number as its sort keys spell it (10 digits, so keys sort by seq). */
function seqKey(seq: number): string {
  return String(seq).padStart(10, '0');
}

/**
 * Messages from their items in sort-key order: chunks joined in seq order, and a message whose
 * chunks are not all there (an append that died half-way) dropped instead of returned corrupt.
 */
function assembleMessages(items: readonly Record<string, unknown>[]): SequencedMessages {
  const messages: TranscriptMessage[] = [];
  const seqs: number[] = [];
  let i = 0;
  while (i < items.length) {
    const seq = items[i]!.seq;
    const group: Record<string, unknown>[] = [];
    while (i < items.length && items[i]!.seq === seq) group.push(items[i++]!);
    const chunks = Number(group[0]!.chunks);
    if (group.length !== chunks || group.some((item, n) => item.chunk !== n)) continue;
    messages.push(JSON.parse(group.map((item) => String(item.data)).join('')) as TranscriptMessage);
    seqs.push(Number(seq));
  }
  return { messages, seqs };
}

import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { gunzipText, gzipText } from './gzip-text.ts';
import { epochSeconds, queryPartition, type DynamoTable } from './dynamo-table.ts';
import { parseRecentTurnsCursor, queryRecentTurnsDay, recentTurnsKey, TRACE_RECENT_PREFIX } from './recent-turns-index.ts';
import { matchesTurn, mergeTurnSummaries, summarizeTurn, type TurnFilter, type TurnSummary } from './turn-summary.ts';
import { StoreWriteError } from './store-errors.ts';
import type { TranscriptRange } from './transcript-store.ts';

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
  /** The plugin that registered the callback (plugin rows). */
  readonly plugin?: string;
  /** A shell hook's exit code (`null`: killed at its timeout, or it did not start). */
  readonly exit_code?: number | null;
  /** A shell hook's stdout and stderr, cut (and redacted, as every trace record is). */
  readonly stdout?: string;
  readonly stderr?: string;
  /** What came of it: `allow`, `block: <msg>`, `context (N chars)`, `replaced`, `unchanged`, `emitted`, `error: …`. */
  readonly decision: string;
  readonly duration_ms: number;
  /** The text of a reply the platform never took (hook `reply`, decision `undelivered: …`). */
  readonly text?: string;
  /** Where that reply was going (without the target's `extra`, which may be a credential). */
  readonly reply_to?: { readonly platform: string; readonly chat_id: string; readonly thread_id: string };
  /**
   * The call's kwargs as JSON, whole up to {@link TRACE_KWARGS_CHARS} (what `hookgate replay` re-runs the call
   * with); a longer one is cut to {@link TRACE_DETAIL_CHARS} and marked {@link kwargs_cut}.
   */
  readonly kwargs?: string;
  /** Set when {@link kwargs} was cut: the call is not replayable. */
  readonly kwargs_cut?: boolean;
  /**
   * Set when the call's `conversation_history` began with the turn's stored history: {@link kwargs}
   * then holds only the messages after it, and this names the stored part in the session's
   * transcript (read back by `hookgate replay`). Without it the trace would copy the whole
   * window into every call's records, and a turn's writes would grow with its session.
   */
  readonly kwargs_history?: TranscriptRange;
  /** The call's number in its invocation: the records of one hook call (one per callback) share it. */
  readonly call?: number;
  /**
   * `decide` for a decision hook's call (its results are used at the call site), `observe` for an
   * observer event, `note` for what the call site made of a call (a `pre_tool_call` rewrite): not a
   * hook call, so `hookgate replay` skips it.
   */
  readonly phase?: 'decide' | 'observe' | 'note';
  /** The whole call's decision (all its callbacks aggregated), as {@link decision} words it. */
  readonly outcome?: string;
  /** A fingerprint of what the call site took from the call (block message, context, replacement text); `-` for nothing. */
  readonly outcome_digest?: string;
  /** This callback's raw return value (or error) as JSON, cut the same way. */
  readonly result?: string;
}

/** One entry of the recent-turns index: one invocation of a turn. */
export interface RecentTurn {
  session_id: string;
  turn_id: string;
  at: string;
  summary?: TurnSummary;
  /** Where a listing that ended at this entry goes on: `recentTurns({ before: cursor })`. */
  cursor: string;
}

function parseSummary(json: string): TurnSummary | undefined {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && 'turn_id' in value ? (value as TurnSummary) : undefined;
  } catch {
    return undefined;
  }
}

/** A stored `kwargs_history`, when it is one. */
function transcriptRangeOf(value: unknown): { kwargs_history?: TranscriptRange } {
  if (typeof value !== 'object' || value === null) return {};
  const { session_id, from_seq, to_seq, count } = value as Record<string, unknown>;
  return typeof session_id === 'string' && typeof from_seq === 'number' && typeof to_seq === 'number' && typeof count === 'number'
    ? { kwargs_history: { session_id, from_seq, to_seq, count } }
    : {};
}

/** The summary of a turn indexed without one: its ids and time. */
function bareSummary(entry: RecentTurn): TurnSummary {
  return {
    turn_id: entry.turn_id,
    session_id: entry.session_id,
    at: entry.at,
    duration_ms: 0,
    platform: '',
    chat_id: '',
    user_id: '',
    first_line: '',
    hooks: [],
    decisions: [],
    blocked: false,
    error: false,
    approval: false,
    records: 0,
  };
}

/** The partition of the undelivered-reply index (see the key design below). */
export const UNDELIVERED_REPLY_PK = 'UNDELIVERED_REPLY';
/** `TRACE_RECENT#<YYYY-MM-DD>#<shard>`: the recent-turns index by day (recent-turns-index.ts). */
export { TRACE_RECENT_PREFIX };

/** A kept reply (undelivered-reply.ts in the turn runtime) that says where it was going. */
function isUndeliveredReply(
  record: TraceRecord,
): record is TraceRecord & { text: string; reply_to: NonNullable<TraceRecord['reply_to']> } {
  return (
    record.hook === 'reply' &&
    record.decision.startsWith('undelivered: ') &&
    typeof record.text === 'string' &&
    record.reply_to !== undefined
  );
}

/** How much of a callback's result a trace record keeps (and of kwargs that were cut). */
export const TRACE_DETAIL_CHARS = 2000;
/** How much of a call's kwargs a trace record keeps whole (JSON characters); longer ones are cut (docs/turn-runtime.md). */
export const TRACE_KWARGS_CHARS = 65_536;

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
 *   PK = `TRACE#<turn id>`, SK = `RUN#<at ISO>#<invocation id>#<pack, 6 digits>`, attribute
 *     records_gz (a JSON array, gzipped; binary): an invocation's records packed into as few items
 *     as fit 256 KiB of JSON (`TRACE_ITEM_BYTES`), usually one. The SK sorts by time, then by pack inside one
 *     invocation, so a turn resumed in a later invocation lists after its first part. Items
 *     written before packing hold one record each as attributes; `list` reads both.
 *   PK = `TRACE_SESSION#<session id>`, SK = `TURN#<at ISO>#<invocation id>`, attribute turn_id:
 *     one item per invocation of a turn, written in the same batch as its records, so the
 *     turns of a session are one query away (`listSession`).
 *   PK = `TRACE_RECENT#<YYYY-MM-DD>#<shard 0-7>`, SK = `TURN#<at ISO>#<invocation id>`,
 *     attributes session_id, turn_id, summary (a TurnSummary as JSON: chat, user, first line,
 *     hooks, badges): the same index by day, so the console lists and filters recent turns with
 *     Queries instead of a Scan (partitions by day keep it from growing without bound). The
 *     shard is a hash of the turn id (recent-turns-index.ts): one key per day would take
 *     only ~1,000 writes a second. Readers query a day's shards and the unsharded
 *     `TRACE_RECENT#<YYYY-MM-DD>` older tables still hold, and merge them newest first.
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
    const packs = await Promise.all(
      packTraceRecords(records).map(async (pack) => ({ turn_id: pack.turn_id, gzip: await gzipText(pack.json) })),
    );
    const items: { PutRequest: { Item: Record<string, unknown> } }[] = packs.map((pack, seq) => ({
      PutRequest: {
        Item: {
          PK: `TRACE#${pack.turn_id}`,
          SK: `RUN#${first}#${invocation}#${String(seq).padStart(6, '0')}`,
          records_gz: pack.gzip,
          expires_at: expires,
        },
      },
    }));
    if (sessionId) {
      const turn_id = records[0]!.turn_id;
      items.push(
        {
          PutRequest: {
            Item: { PK: `TRACE_SESSION#${sessionId}`, SK: `TURN#${first}#${invocation}`, turn_id, expires_at: expires },
          },
        },
        {
          PutRequest: {
            Item: {
              PK: recentTurnsKey(first, turn_id),
              SK: `TURN#${first}#${invocation}`,
              session_id: sessionId,
              turn_id,
              summary: JSON.stringify(summarizeTurn(records, sessionId)),
              expires_at: expires,
            },
          },
        },
      );
    }
    records.forEach((record, seq) => {
      if (!isUndeliveredReply(record)) return;
      const { platform, chat_id, thread_id } = record.reply_to;
      const item = {
        turn_id: record.turn_id,
        at: record.at,
        session_id: sessionId ?? '',
        platform,
        chat_id,
        thread_id,
        text: record.text,
        error: record.decision.slice('undelivered: '.length),
      };
      items.push({
        PutRequest: {
          Item: {
            PK: UNDELIVERED_REPLY_PK,
            SK: `${record.at}#${record.turn_id}#${invocation}#${String(seq).padStart(6, '0')}`,
            ...item,
            expires_at: expires,
          },
        },
      });
    });
    for (let start = 0; start < items.length; start += 25) {
      let pending: typeof items = items.slice(start, start + 25);
      for (let attempt = 0; pending.length > 0; attempt++) {
        const out = await this.table.doc.send(new BatchWriteCommand({ RequestItems: { [this.table.tableName]: pending } }));
        pending = (out.UnprocessedItems?.[this.table.tableName] ?? []) as typeof items;
        if (pending.length > 0) {
          if (attempt >= 5) throw new StoreWriteError(`trace: ${pending.length} records could not be written`);
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
   * most `limit`, only those older than `before` (an entry's `cursor`: the next page) when
   * given: per day, a Query on each shard of the `TRACE_RECENT#` index (and its unsharded
   * key), merged. Throws RecentTurnsCursorError for a cursor this index did not hand out.
   *
   * @example
   * const page = await traces.recentTurns({ limit: 50 });
   * const next = await traces.recentTurns({ limit: 50, before: page.at(-1)?.cursor });
   */
  async recentTurns(options: { days?: number; limit?: number; now?: Date; before?: string } = {}): Promise<RecentTurn[]> {
    const days = options.days ?? Math.ceil(DynamoTraceStore.RETAIN_SECONDS / 86_400) + 1;
    const limit = options.limit ?? 1000;
    const now = (options.now ?? new Date()).getTime();
    const before = options.before === undefined ? undefined : parseRecentTurnsCursor(options.before);
    const turns: RecentTurn[] = [];
    for (let day = 0; day < days && turns.length < limit; day++) {
      const date = new Date(now - day * 86_400_000).toISOString().slice(0, 10);
      // Days after the cursor's hold nothing older than it.
      if (before !== undefined && date > before.slice('TURN#'.length, 'TURN#'.length + 10)) continue;
      for (const item of await queryRecentTurnsDay(this.table, date, {
        limit: limit - turns.length,
        ...(before ? { before } : {}),
      })) {
        const summary = typeof item.summary === 'string' ? parseSummary(item.summary) : undefined;
        const cursor = String(item.SK);
        turns.push({
          session_id: String(item.session_id),
          turn_id: String(item.turn_id),
          at: cursor.split('#')[1] ?? '',
          cursor,
          ...(summary ? { summary } : {}),
        });
      }
    }
    return turns;
  }

  /**
   * The recent turns (newest first) that match `filter`, `offset` of them skipped, at most
   * `limit`, and how many matched in all: the `TRACE_RECENT#` index only (its summaries),
   * invocations of one turn merged. Turns indexed before summaries were kept list with their
   * ids and time only.
   *
   * @example
   * const { turns, total } = await traces.listTurns({ decision: 'block' }, { limit: 20 });
   */
  async listTurns(
    filter: TurnFilter = {},
    page: { limit?: number; offset?: number; now?: Date } = {},
  ): Promise<{ turns: TurnSummary[]; total: number }> {
    const byTurn = new Map<string, TurnSummary>();
    for (const entry of await this.recentTurns({ limit: 5000, ...(page.now ? { now: page.now } : {}) })) {
      const summary = entry.summary ?? bareSummary(entry);
      const known = byTurn.get(entry.turn_id);
      byTurn.set(entry.turn_id, known ? mergeTurnSummaries(known, summary) : summary);
    }
    const matching = [...byTurn.values()].filter((t) => matchesTurn(t, filter)).sort((a, b) => b.at.localeCompare(a.at));
    const offset = Math.max(0, page.offset ?? 0);
    return { turns: matching.slice(offset, offset + Math.max(1, page.limit ?? 50)), total: matching.length };
  }

  async list(turnId: string): Promise<TraceRecord[]> {
    const items = await queryPartition(this.table, `TRACE#${turnId}`, 'RUN#');
    const lists = await Promise.all(
      items.map(async (item) =>
        item.records_gz instanceof Uint8Array ? unpackTraceRecords(item.records_gz) : [traceRecordOf(item)],
      ),
    );
    return lists.flat();
  }
}

/** How many bytes of records' JSON (before gzip) one item holds at most: inside DynamoDB's 400 KB item limit even uncompressed. */
export const TRACE_ITEM_BYTES = 256 * 1024;

/**
 * An invocation's records packed into as few items as fit {@link TRACE_ITEM_BYTES}, per turn
 * and in call order, each pack as one JSON array (gzipped by the caller). One item per record cost
 * a write unit a record and a unit per KB of each (a turn with a dozen hook calls wrote a dozen
 * items, most of it kwargs); packed and gzipped, a turn pays its trace's compressed size in KB,
 * rounded up once (measured in docs/cost.md). A record larger than the budget gets an item
 * of its own (a record is at most ~200 KB: its kwargs are capped at TRACE_KWARGS_CHARS).
 */
function packTraceRecords(records: readonly TraceRecord[]): { turn_id: string; json: string }[] {
  const packs: { turn_id: string; parts: string[]; bytes: number }[] = [];
  const open = new Map<string, (typeof packs)[number]>();
  for (const record of records) {
    const json = JSON.stringify(record);
    const bytes = Buffer.byteLength(json) + 1;
    let pack = open.get(record.turn_id);
    if (!pack || (pack.parts.length > 0 && pack.bytes + bytes > TRACE_ITEM_BYTES)) {
      pack = { turn_id: record.turn_id, parts: [], bytes: 2 };
      packs.push(pack);
      open.set(record.turn_id, pack);
    }
    pack.parts.push(json);
    pack.bytes += bytes;
  }
  return packs.map((pack) => ({ turn_id: pack.turn_id, json: `[${pack.parts.join(',')}]` }));
}

/** The records of one packed item; an item that does not unzip and parse as a list of objects yields none. */
async function unpackTraceRecords(gzipped: Uint8Array): Promise<TraceRecord[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await gunzipText(gzipped));
  } catch {
    return [];
  }
  return Array.isArray(parsed)
    ? parsed.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null).map(traceRecordOf)
    : [];
}

/** A stored record (a packed entry, or an item written one per record before packing), its fields typed. */
function traceRecordOf(item: Record<string, unknown>): TraceRecord {
  return {
    turn_id: String(item.turn_id),
    at: String(item.at),
    hook: String(item.hook),
    source: String(item.source),
    callback: String(item.callback),
    decision: String(item.decision),
    duration_ms: Number(item.duration_ms),
    ...(typeof item.text === 'string' ? { text: item.text } : {}),
    ...(typeof item.kwargs === 'string' ? { kwargs: item.kwargs } : {}),
    ...(item.kwargs_cut === true ? { kwargs_cut: true } : {}),
    ...transcriptRangeOf(item.kwargs_history),
    ...(typeof item.result === 'string' ? { result: item.result } : {}),
    ...(typeof item.plugin === 'string' ? { plugin: item.plugin } : {}),
    ...(typeof item.exit_code === 'number' || item.exit_code === null ? { exit_code: item.exit_code as number | null } : {}),
    ...(typeof item.stdout === 'string' ? { stdout: item.stdout } : {}),
    ...(typeof item.stderr === 'string' ? { stderr: item.stderr } : {}),
    ...(typeof item.call === 'number' ? { call: item.call } : {}),
    ...(item.phase === 'decide' || item.phase === 'observe' || item.phase === 'note' ? { phase: item.phase } : {}),
    ...(typeof item.outcome === 'string' ? { outcome: item.outcome } : {}),
    ...(typeof item.outcome_digest === 'string' ? { outcome_digest: item.outcome_digest } : {}),
  };
}

import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionMeta, SessionRecord, SessionStore, StartedTurn } from './session-store.ts';
import { isConditionFailed, wroteItItself, type DynamoTable } from './dynamo-table.ts';
import { SessionConflictError } from './store-errors.ts';

/**
 * Key design — per conversation (session key = platform + chat + thread):
 *   PK = `SESSION#<session key>`, SK = `CURRENT`: the current session, every `SessionRecord`
 *     field as a top-level attribute (session_id, platform, chat_id, thread_id, user_id,
 *     chat_type, created_at, updated_at, turn_count, fresh), `last_turn` (map: turn_id,
 *     platform, user_id, started_at) set as each turn starts or resumes, for /stop, and
 *     `first_run` (the delivery id of the turn that holds the session's first run, set with
 *     the first note of a starting turn).
 *   PK = `SESSION#<session key>`, SK = `STOP`: stop_requested_at (ISO-8601) from /stop, and the
 *     turn_id it stops (absent: any turn, as /new asks).
 * No TTL: a session outlives any idle window; idle expiry is decided from `updated_at`.
 *
 * Every swap of the current session is a conditional put on the session id it replaces
 * (or on absence), so concurrent turns, /new and idle expiry agree on one winner.
 *
 * @example
 * const sessions = new DynamoSessionStore(table);
 * const { session, created, expired } = await sessions.resolve(key, meta, { idleSeconds: 86_400 });
 */
export class DynamoSessionStore implements SessionStore {
  constructor(private readonly table: DynamoTable) {}

  private key(sessionKey: string, sk: 'CURRENT' | 'STOP') {
    return { PK: `SESSION#${sessionKey}`, SK: sk };
  }

  async current(sessionKey: string): Promise<SessionRecord | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.tableName, Key: this.key(sessionKey, 'CURRENT'), ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : undefined;
  }

  async resolve(
    sessionKey: string,
    meta: SessionMeta,
    options: { idleSeconds?: number; now?: Date } = {},
  ): Promise<{ session: SessionRecord; created: boolean; expired?: SessionRecord }> {
    const now = options.now ?? new Date();
    for (let attempt = 0; ; attempt++) {
      const existing = await this.current(sessionKey);
      const idle =
        existing !== undefined &&
        options.idleSeconds !== undefined &&
        now.getTime() - Date.parse(existing.updated_at) > options.idleSeconds * 1000;
      if (existing && !idle) return { session: existing, created: false };
      const session = newSession(sessionKey, meta, now, idle);
      if (await this.swap(sessionKey, existing, session)) {
        return existing ? { session, created: true, expired: existing } : { session, created: true };
      }
      // Another writer swapped first: take what it stored (retrying on a vanishing race).
      if (attempt >= 2) throw new SessionConflictError(`session ${sessionKey}: could not resolve after concurrent updates`);
    }
  }

  async rotate(sessionKey: string, meta: SessionMeta): Promise<{ old?: SessionRecord; current: SessionRecord }> {
    const old = await this.current(sessionKey);
    const next = newSession(sessionKey, meta, new Date(), true);
    if (await this.swap(sessionKey, old, next)) return old ? { old, current: next } : { current: next };
    // First writer wins: a concurrent rotation already replaced `old`; report its result.
    const winner = await this.current(sessionKey);
    if (!winner) throw new SessionConflictError(`session ${sessionKey}: vanished during rotation`);
    return old ? { old, current: winner } : { current: winner };
  }

  async recordTurn(sessionKey: string, sessionId: string, turnId: string, now: Date = new Date()): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: this.key(sessionKey, 'CURRENT'),
          // `counted_turn` makes the count once per turn: the SDK sends the update again when its
          // answer is lost, and that second attempt must not count the turn twice.
          UpdateExpression: 'SET turn_count = turn_count + :one, updated_at = :now, fresh = :false, counted_turn = :turn',
          ConditionExpression: 'session_id = :sid AND (attribute_not_exists(counted_turn) OR counted_turn <> :turn)',
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': now.toISOString(),
            ':false': false,
            ':sid': sessionId,
            ':turn': turnId,
          },
        }),
      );
    } catch (error) {
      // The session was rotated while the turn ran (the new one has not had a turn yet), or this
      // turn is already counted.
      if (!isConditionFailed(error)) throw error;
    }
  }

  async noteTurnStarted(sessionKey: string, sessionId: string, turn: StartedTurn, firstRunOf?: string): Promise<boolean> {
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: this.key(sessionKey, 'CURRENT'),
          // The first-run claim rides on the note (no round trip of its own): the first delivery
          // to start a turn in the session keeps it; UPDATED_OLD says who held it before.
          UpdateExpression:
            firstRunOf === undefined
              ? 'SET last_turn = :turn'
              : 'SET last_turn = :turn, first_run = if_not_exists(first_run, :delivery)',
          ConditionExpression: 'session_id = :sid',
          ExpressionAttributeValues: {
            ':turn': { ...turn },
            ':sid': sessionId,
            ...(firstRunOf === undefined ? {} : { ':delivery': firstRunOf }),
          },
          ReturnValues: firstRunOf === undefined ? 'NONE' : 'UPDATED_OLD',
        }),
      );
      if (firstRunOf === undefined) return false;
      const held = Attributes?.first_run;
      return held === undefined || held === firstRunOf;
    } catch (error) {
      // Rotated meanwhile (/new): the new session has no turn yet.
      if (!isConditionFailed(error)) throw error;
      return firstRunOf !== undefined;
    }
  }

  async releaseFirstRun(sessionKey: string, sessionId: string, deliveryId: string): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: this.key(sessionKey, 'CURRENT'),
          UpdateExpression: 'REMOVE first_run',
          ConditionExpression: 'session_id = :sid AND first_run = :delivery',
          ExpressionAttributeValues: { ':sid': sessionId, ':delivery': deliveryId },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  async requestStop(sessionKey: string, now: Date = new Date(), turnId?: string): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          ...this.key(sessionKey, 'STOP'),
          stop_requested_at: now.toISOString(),
          ...(turnId !== undefined ? { turn_id: turnId } : {}),
        },
      }),
    );
  }

  async stopRequested(sessionKey: string, since: Date, turnId?: string): Promise<boolean> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.tableName, Key: this.key(sessionKey, 'STOP'), ConsistentRead: true }),
    );
    const at = typeof Item?.stop_requested_at === 'string' ? Date.parse(Item.stop_requested_at) : NaN;
    const forThisTurn = typeof Item?.turn_id !== 'string' || turnId === undefined || Item.turn_id === turnId;
    return Number.isFinite(at) && at >= since.getTime() && forThisTurn;
  }

  /** Conditional put: replaces exactly `expected` (or nothing). False when another writer won. */
  private async swap(sessionKey: string, expected: SessionRecord | undefined, next: SessionRecord): Promise<boolean> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { ...this.key(sessionKey, 'CURRENT'), ...next },
          ...(expected
            ? { ConditionExpression: 'session_id = :old', ExpressionAttributeValues: { ':old': expected.session_id } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // The fresh session id tells a put that an earlier attempt of its own stored (`wroteItItself`).
      return wroteItItself(this.table, this.key(sessionKey, 'CURRENT'), 'session_id', next.session_id, error);
    }
  }
}

/** Hermes-style session id: `YYYYMMDD_HHMMSS_<8 hex>` (sortable, unique). */
function newSessionId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  return `${stamp}_${randomBytes(4).toString('hex')}`;
}

function newSession(sessionKey: string, meta: SessionMeta, now: Date, fresh: boolean): SessionRecord {
  const at = now.toISOString();
  return {
    session_key: sessionKey,
    session_id: newSessionId(now),
    platform: meta.platform,
    chat_id: meta.chat_id,
    thread_id: meta.thread_id,
    user_id: meta.user_id,
    chat_type: meta.chat_type,
    created_at: at,
    updated_at: at,
    turn_count: 0,
    fresh,
  };
}

function toRecord(item: Record<string, unknown>): SessionRecord {
  return {
    session_key: String(item.session_key),
    session_id: String(item.session_id),
    platform: String(item.platform),
    chat_id: String(item.chat_id),
    thread_id: String(item.thread_id ?? ''),
    user_id: item.user_id === undefined || item.user_id === null ? null : String(item.user_id),
    chat_type: String(item.chat_type),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    turn_count: Number(item.turn_count ?? 0),
    fresh: item.fresh === true,
    ...(lastTurnOf(item.last_turn) ? { last_turn: lastTurnOf(item.last_turn)! } : {}),
  };
}

function lastTurnOf(value: unknown): StartedTurn | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const turn = value as Record<string, unknown>;
  if (typeof turn.turn_id !== 'string' || typeof turn.platform !== 'string' || typeof turn.started_at !== 'string')
    return undefined;
  return {
    turn_id: turn.turn_id,
    platform: turn.platform,
    user_id: typeof turn.user_id === 'string' ? turn.user_id : null,
    started_at: turn.started_at,
  };
}

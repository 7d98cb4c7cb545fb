import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  AnsweredApproval,
  ApprovalAnswer,
  ApprovalChoice,
  ApprovalStore,
  ApprovalSummary,
  GrantContext,
  GrantScope,
  PendingApproval,
  PendingApprovalSummary,
} from './approval-store.ts';
import { epochSeconds, isConditionFailed, queryPartition, wroteItItself, type DynamoTable } from './dynamo-table.ts';
import { gunzipText, gzipText } from './gzip-text.ts';
import { StoreReadError } from './store-errors.ts';

/**
 * A suspended turn's state up to this many characters of JSON is kept as text (`state_json`); a
 * bigger one (tool results in the turn's messages) is gzipped (`state_gz`): as text, 400 KB of it
 * failed the put (DynamoDB's item limit), and the turn with it.
 */
export const APPROVAL_STATE_INLINE_CHARS = 64 * 1024;

/**
 * Most gzipped bytes of state one item holds. Output that does not compress (random data, base64,
 * archives) stays over 400 KB gzipped: such a state is split into items of this size under the
 * approval's partition (`STATE#00001`, …), written before the approval item that counts them.
 */
export const STATE_PART_BYTES = 300 * 1024;

/**
 * Key design:
 *   PK = `APPROVAL#<approval id>`, SK = `APPROVAL`: the `PendingApproval` fields, `state`
 *     kept as JSON text (`state_json`; opaque, any shape) or, past APPROVAL_STATE_INLINE_CHARS,
 *     gzipped JSON (`state_gz`, binary), its ISO `expires_at` as
 *     `approval_expires_at`, the requester as `requested_by`, later `choice` + `answered_at`
 *     (+ `answered_by`, `global`), and `resumed_at` once a resumed invocation finished.
 *     expires_at (TTL, epoch seconds) = the approval's expiry + 7 days, for clean-up only.
 *   PK = `APPROVAL#<approval id>`, SK = `STATE#<n:5>` (from 00001): a gzipped state over
 *     STATE_PART_BYTES, in order (`part`, binary); the approval item then has `state_parts`, their count.
 *   PK = `SESSION#<session key>`, SK = `PENDING_APPROVAL`: approval_id of the conversation's
 *     open approval (a pointer; the approval item is the truth about whether it is answered).
 *   PK = `GRANT#session#<session id>`, SK = `PATTERN#<pattern key>`: a "session" grant.
 *   PK = `GRANT#chat#<platform>#<chat id>` (both URI-encoded), SK = `PATTERN#<pattern key>`:
 *     an "always" grant for one chat.
 *   PK = `GRANT#global`, SK = `PATTERN#<pattern key>`: an approver's "always" grant for every chat.
 *   (The unscoped `GRANT#always` items of earlier versions are no longer read: such a grant,
 *   given by anyone, applied to every chat.)
 * The first answer wins: `answer` is an update conditioned on `attribute_not_exists(choice)`.
 *
 * @example
 * const approvals = new DynamoApprovalStore(table);
 * await approvals.putPending(pending);
 * if (await approvals.answer(pending.approval_id, 'once')) { … resume the turn … }
 */
export class DynamoApprovalStore implements ApprovalStore {
  /** Answered approvals linger this long for `get` (traces, late answers) before TTL clean-up. */
  static readonly RETAIN_SECONDS = 7 * 86_400;

  constructor(private readonly table: DynamoTable) {}

  async putPending(approval: PendingApproval): Promise<void> {
    // `expires_at` names the table's TTL attribute (epoch seconds), so the ISO expiry is kept apart.
    const { state, expires_at, ...fields } = approval;
    const expiry = Date.parse(approval.expires_at);
    const ttl = epochSeconds(new Date(Number.isFinite(expiry) ? expiry : Date.now())) + DynamoApprovalStore.RETAIN_SECONDS;
    const stored = await this.#storeState(approval.approval_id, state, ttl);
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: `APPROVAL#${approval.approval_id}`,
          SK: 'APPROVAL',
          ...fields,
          pattern_keys: [...approval.pattern_keys],
          approval_expires_at: expires_at,
          ...stored,
          expires_at: ttl,
        },
      }),
    );
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: { PK: `SESSION#${approval.session_key}`, SK: 'PENDING_APPROVAL', approval_id: approval.approval_id },
      }),
    );
  }

  async pending(sessionKey: string): Promise<PendingApprovalSummary | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { PK: `SESSION#${sessionKey}`, SK: 'PENDING_APPROVAL' },
        ConsistentRead: true,
      }),
    );
    if (typeof Item?.approval_id !== 'string') return undefined;
    const approval = await this.summary(Item.approval_id);
    if (!approval || approval.choice !== undefined) return undefined;
    const { choice: _unanswered, ...pending } = approval;
    return pending;
  }

  async get(approvalId: string): Promise<AnsweredApproval | undefined> {
    const item = await this.#item(approvalId);
    return item && { ...summaryOf(item), state: await this.#loadState(approvalId, item) };
  }

  async summary(approvalId: string): Promise<ApprovalSummary | undefined> {
    // Projected: the state kept on the item (up to 300 KB gzipped) is not sent at all.
    const item = await this.#item(approvalId, SUMMARY_ATTRIBUTES);
    return item && summaryOf(item);
  }

  async #item(approvalId: string, attributes?: readonly string[]): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' },
        ConsistentRead: true,
        ...(attributes
          ? {
              ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
              ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
            }
          : {}),
      }),
    );
    return Item;
  }

  /** The attributes that keep `state` on the approval item, after writing the parts of one too big for it. */
  async #storeState(approvalId: string, state: unknown, ttl: number): Promise<Record<string, unknown>> {
    const json = JSON.stringify(state ?? null);
    if (json.length <= APPROVAL_STATE_INLINE_CHARS) return { state_json: json };
    const gz = await gzipText(json);
    if (gz.length <= STATE_PART_BYTES) return { state_gz: gz };
    const count = Math.ceil(gz.length / STATE_PART_BYTES);
    // One put per part, side by side: one round trip for the few parts of even a multi-MB state, and
    // PutItem is the grant the store has already (a BatchWriteItem would need its own, and a retry loop).
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        this.table.doc.send(
          new PutCommand({
            TableName: this.table.tableName,
            Item: {
              PK: `APPROVAL#${approvalId}`,
              SK: statePartKey(i + 1),
              part: gz.subarray(i * STATE_PART_BYTES, (i + 1) * STATE_PART_BYTES),
              expires_at: ttl,
            },
          }),
        ),
      ),
    );
    return { state_parts: count };
  }

  async #loadState(approvalId: string, item: Record<string, unknown>): Promise<unknown> {
    if (item.state_gz instanceof Uint8Array) return JSON.parse(await gunzipText(item.state_gz));
    if (typeof item.state_parts !== 'number') return JSON.parse(String(item.state_json ?? 'null'));
    const expected = item.state_parts;
    const parts = (await queryPartition(this.table, `APPROVAL#${approvalId}`, 'STATE#'))
      .filter((part) => part.part instanceof Uint8Array)
      .sort((a, b) => (String(a.SK) < String(b.SK) ? -1 : 1));
    if (parts.length !== expected || parts.some((part, i) => part.SK !== statePartKey(i + 1)))
      throw new StoreReadError(`the state of approval ${approvalId} has ${parts.length} of its ${expected} parts`);
    return JSON.parse(await gunzipText(Buffer.concat(parts.map((part) => part.part as Uint8Array))));
  }

  async answer(approvalId: string, choice: ApprovalChoice, now: Date = new Date(), by: ApprovalAnswer = {}): Promise<boolean> {
    let sessionKey: string;
    const extra: Record<string, unknown> = {};
    if (by.answered_by !== undefined) extra[':by'] = by.answered_by;
    if (by.global === true) extra[':global'] = true;
    // Tells this answer from another if the SDK sends it twice (`wroteItItself`).
    const token = randomUUID();
    const sets = [
      'choice = :choice',
      'answered_at = :now',
      'answer_token = :token',
      ...(':by' in extra ? ['answered_by = :by'] : []),
      ...(':global' in extra ? ['#global = :global'] : []),
    ];
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(choice)',
          ...(':global' in extra ? { ExpressionAttributeNames: { '#global': 'global' } } : {}),
          ExpressionAttributeValues: { ':choice': choice, ':now': now.toISOString(), ':token': token, ...extra },
          ReturnValues: 'ALL_NEW',
        }),
      );
      sessionKey = String(Attributes?.session_key);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const key = { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' };
      if (!(await wroteItItself(this.table, key, 'answer_token', token, error))) return false;
      // This answer, stored by an attempt whose reply was lost: go on as if it had come back.
      const summary = await this.summary(approvalId);
      if (!summary) return false;
      sessionKey = summary.session_key;
    }
    // Drop the pointer if it still names this approval (a newer one may have replaced it).
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: { PK: `SESSION#${sessionKey}`, SK: 'PENDING_APPROVAL' },
          ConditionExpression: 'approval_id = :id',
          ExpressionAttributeValues: { ':id': approvalId },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    return true;
  }

  async markResumed(approvalId: string, now: Date = new Date()): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' },
          UpdateExpression: 'SET resumed_at = :now',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(resumed_at)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  async grant(scope: GrantScope, patternKey: string): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: grantPartition(scope),
          SK: `PATTERN#${patternKey}`,
          pattern_key: patternKey,
          scope: scope.kind,
          granted_at: new Date().toISOString(),
        },
      }),
    );
  }

  async isGranted(patternKey: string, where: GrantContext): Promise<boolean> {
    const scopes: GrantScope[] = [
      { kind: 'session', session_id: where.session_id },
      { kind: 'chat', platform: where.platform, chat_id: where.chat_id },
      { kind: 'global' },
    ];
    const { Responses } = await this.table.doc.send(
      new BatchGetCommand({
        RequestItems: {
          [this.table.tableName]: {
            Keys: scopes.map((scope) => ({ PK: grantPartition(scope), SK: `PATTERN#${patternKey}` })),
            ConsistentRead: true,
          },
        },
      }),
    );
    return (Responses?.[this.table.tableName]?.length ?? 0) > 0;
  }

  async clearSession(sessionKey: string, sessionId: string): Promise<void> {
    const grants = await queryPartition(this.table, `GRANT#session#${sessionId}`, undefined, { projection: 'PK, SK' });
    await Promise.all(
      grants.map((item) =>
        this.table.doc.send(new DeleteCommand({ TableName: this.table.tableName, Key: { PK: item.PK, SK: item.SK } })),
      ),
    );
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.tableName, Key: { PK: `SESSION#${sessionKey}`, SK: 'PENDING_APPROVAL' } }),
    );
  }
}

/** `STATE#00001`, …: a part's sort key, in order as strings. */
function statePartKey(n: number): string {
  return `STATE#${String(n).padStart(5, '0')}`;
}

function grantPartition(scope: GrantScope): string {
  switch (scope.kind) {
    case 'session':
      return `GRANT#session#${scope.session_id}`;
    case 'chat':
      return `GRANT#chat#${encodeURIComponent(scope.platform)}#${encodeURIComponent(scope.chat_id)}`;
    case 'global':
      return 'GRANT#global';
  }
}

/** The approval item's attributes `summaryOf` reads: everything but the state. */
const SUMMARY_ATTRIBUTES = [
  'approval_id',
  'session_key',
  'session_id',
  'turn_id',
  'command',
  'description',
  'pattern_key',
  'pattern_keys',
  'created_at',
  'approval_expires_at',
  'requested_by',
  'choice',
  'answered_by',
  'global',
  'resumed_at',
] as const;

/** An approval item's fields and answer, without its state (the item's `SUMMARY_ATTRIBUTES`). */
function summaryOf(item: Record<string, unknown>): ApprovalSummary {
  const approval = {
    approval_id: String(item.approval_id),
    session_key: String(item.session_key),
    session_id: String(item.session_id),
    turn_id: String(item.turn_id),
    command: String(item.command),
    description: String(item.description ?? ''),
    pattern_key: String(item.pattern_key ?? ''),
    pattern_keys: Array.isArray(item.pattern_keys) ? item.pattern_keys.map(String) : [],
    created_at: String(item.created_at),
    expires_at: String(item.approval_expires_at ?? ''),
    requested_by: requesterOf(item.requested_by, item.session_key),
  };
  if (item.choice === undefined) return approval;
  return {
    ...approval,
    choice: item.choice as ApprovalChoice,
    ...(typeof item.answered_by === 'string' ? { answered_by: item.answered_by } : {}),
    ...(item.global === true ? { global: true } : {}),
    ...(typeof item.resumed_at === 'string' ? { resumed_at: item.resumed_at } : {}),
  };
}

/** The stored requester; items written before it was recorded fall back to the session key's platform and chat, no user. */
function requesterOf(stored: unknown, sessionKey: unknown): PendingApproval['requested_by'] {
  if (stored && typeof stored === 'object') {
    const r = stored as Record<string, unknown>;
    return {
      platform: String(r.platform ?? ''),
      chat_id: String(r.chat_id ?? ''),
      user_id: typeof r.user_id === 'string' ? r.user_id : null,
    };
  }
  const [platform = '', chat_id = ''] = String(sessionKey ?? '').split(':');
  return { platform, chat_id, user_id: null };
}

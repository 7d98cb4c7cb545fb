import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalChoice, ApprovalStore, PendingApproval } from './approval-store.ts';
import { epochSeconds, isConditionFailed, queryPartition, type DynamoTable } from './dynamo-table.ts';

/**
 * Key design:
 *   PK = `APPROVAL#<approval id>`, SK = `APPROVAL`: the `PendingApproval` fields, `state`
 *     kept as JSON text (`state_json`; opaque, any shape), its ISO `expires_at` as
 *     `approval_expires_at`, later `choice` + `answered_at`.
 *     expires_at (TTL, epoch seconds) = the approval's expiry + 7 days, for clean-up only.
 *   PK = `SESSION#<session key>`, SK = `PENDING_APPROVAL`: approval_id of the conversation's
 *     open approval (a pointer; the approval item is the truth about whether it is answered).
 *   PK = `GRANT#always`, SK = `PATTERN#<pattern key>`: an "always" grant.
 *   PK = `GRANT#session#<session id>`, SK = `PATTERN#<pattern key>`: a "session" grant.
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
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: `APPROVAL#${approval.approval_id}`,
          SK: 'APPROVAL',
          ...fields,
          pattern_keys: [...approval.pattern_keys],
          approval_expires_at: expires_at,
          state_json: JSON.stringify(state ?? null),
          expires_at: epochSeconds(new Date(Number.isFinite(expiry) ? expiry : Date.now())) + DynamoApprovalStore.RETAIN_SECONDS,
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

  async pending(sessionKey: string): Promise<PendingApproval | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { PK: `SESSION#${sessionKey}`, SK: 'PENDING_APPROVAL' },
        ConsistentRead: true,
      }),
    );
    if (typeof Item?.approval_id !== 'string') return undefined;
    const approval = await this.get(Item.approval_id);
    if (!approval || approval.choice !== undefined) return undefined;
    const { choice: _unanswered, ...pending } = approval;
    return pending;
  }

  async get(approvalId: string): Promise<(PendingApproval & { choice?: ApprovalChoice }) | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' },
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const approval: PendingApproval & { choice?: ApprovalChoice } = {
      approval_id: String(Item.approval_id),
      session_key: String(Item.session_key),
      session_id: String(Item.session_id),
      turn_id: String(Item.turn_id),
      command: String(Item.command),
      description: String(Item.description ?? ''),
      pattern_key: String(Item.pattern_key ?? ''),
      pattern_keys: Array.isArray(Item.pattern_keys) ? Item.pattern_keys.map(String) : [],
      created_at: String(Item.created_at),
      expires_at: String(Item.approval_expires_at ?? ''),
      state: JSON.parse(String(Item.state_json ?? 'null')),
    };
    return Item.choice === undefined ? approval : { ...approval, choice: Item.choice as ApprovalChoice };
  }

  async answer(approvalId: string, choice: ApprovalChoice, now: Date = new Date()): Promise<boolean> {
    let sessionKey: string;
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' },
          UpdateExpression: 'SET choice = :choice, answered_at = :now',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(choice)',
          ExpressionAttributeValues: { ':choice': choice, ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      sessionKey = String(Attributes?.session_key);
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
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

  async grant(scope: 'session' | 'always', patternKey: string, sessionId: string): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: scope === 'always' ? 'GRANT#always' : `GRANT#session#${sessionId}`,
          SK: `PATTERN#${patternKey}`,
          pattern_key: patternKey,
          granted_at: new Date().toISOString(),
        },
      }),
    );
  }

  async isGranted(patternKey: string, sessionId: string): Promise<boolean> {
    const { Responses } = await this.table.doc.send(
      new BatchGetCommand({
        RequestItems: {
          [this.table.tableName]: {
            Keys: [
              { PK: 'GRANT#always', SK: `PATTERN#${patternKey}` },
              { PK: `GRANT#session#${sessionId}`, SK: `PATTERN#${patternKey}` },
            ],
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
      grants.map((item) => this.table.doc.send(new DeleteCommand({ TableName: this.table.tableName, Key: { PK: item.PK, SK: item.SK } }))),
    );
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.tableName, Key: { PK: `SESSION#${sessionKey}`, SK: 'PENDING_APPROVAL' } }),
    );
  }
}

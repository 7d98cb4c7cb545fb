/**
 * What each function does to the table, action by action, on the partition-key prefixes it
 * touches (`dynamodb:LeadingKeys`). Each grant names the files whose calls need it; the
 * infra test checks every granted action is called there, so nothing unused is granted.
 * Key prefixes: src/store/dynamo-table.ts.
 */
export type TableAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'BatchGetItem' | 'BatchWriteItem';

export interface TableGrant {
  readonly actions: readonly TableAction[];
  /** `dynamodb:LeadingKeys` patterns (StringLike): the partition keys these calls use. */
  readonly leadingKeys: readonly string[];
  /** Repository-relative files whose calls need these actions. */
  readonly calledFrom: readonly string[];
}

export type FunctionName = 'gateway' | 'turn' | 'observer';

/** Powertools' persistence layer, which the observer's idempotency store extends. */
const POWERTOOLS_DYNAMODB_LAYER =
  'node_modules/@aws-lambda-powertools/idempotency/lib/esm/persistence/DynamoDBPersistenceLayer.js';

/** Every function: shell-hook consent is read from the deployed allowlist (never written there). */
const ALLOWLIST_READ: TableGrant = {
  actions: ['GetItem'],
  leadingKeys: ['ALLOWLIST'],
  calledFrom: ['src/store/dynamo-allowlist-store.ts'],
};

/** Gateway and turn: observer envelopes SNS did not take go to the outbox (items, then the session's index entry; a held session's entry is read). */
const OUTBOX_WRITE: TableGrant = {
  actions: ['BatchWriteItem', 'GetItem'],
  leadingKeys: ['OUTBOX#*', 'OUTBOX_PENDING'],
  calledFrom: ['src/pipeline/observer-outbox.ts'],
};

export const TABLE_ACCESS: Readonly<Record<FunctionName, readonly TableGrant[]>> = {
  gateway: [
    OUTBOX_WRITE,
    // Delivery dedup: claim (conditional put), release on failure; when a platform's retry finds
    // the delivery claimed, when it was claimed (still in hand: 503, so it asks again).
    {
      actions: ['PutItem', 'DeleteItem', 'GetItem'],
      leadingKeys: ['DEDUP#*'],
      calledFrom: ['src/store/dynamo-delivery-dedup-store.ts'],
    },
    // Sessions: current, /stop (requestStop), /new and /reset (rotate); pending approval (get, clear on answer or reset).
    {
      actions: ['GetItem', 'PutItem', 'DeleteItem'],
      leadingKeys: ['SESSION#*'],
      calledFrom: ['src/store/dynamo-session-store.ts', 'src/store/dynamo-approval-store.ts'],
    },
    // /approve, /deny and /status: read the approval item (never its state's parts) and answer it.
    {
      actions: ['GetItem', 'UpdateItem'],
      leadingKeys: ['APPROVAL#*'],
      calledFrom: ['src/store/dynamo-approval-store.ts'],
    },
    // /reset drops the session's grants.
    {
      actions: ['Query', 'DeleteItem'],
      leadingKeys: ['GRANT#session#*'],
      calledFrom: ['src/store/dynamo-approval-store.ts', 'src/store/dynamo-table.ts'],
    },
    // Plugin slash commands read the current session's turn traces (`traces()` of the command context).
    {
      actions: ['Query'],
      leadingKeys: ['TRACE_SESSION#*', 'TRACE#*'],
      calledFrom: ['src/store/trace-store.ts', 'src/store/dynamo-table.ts'],
    },
    ALLOWLIST_READ,
  ],
  turn: [
    OUTBOX_WRITE,
    // Sessions: resolve (get, swap), stop requested, record the turn; pending approval put and cleared.
    {
      actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      leadingKeys: ['SESSION#*'],
      calledFrom: ['src/store/dynamo-session-store.ts', 'src/store/dynamo-approval-store.ts'],
    },
    // Handled deliveries: a turn message that comes again after its turn ended is not run twice.
    { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['DEDUP#*'], calledFrom: ['src/store/dynamo-delivery-dedup-store.ts'] },
    // Dangerous-command approvals: put pending (and the parts of a state too big for one item), read, answer on timeout.
    {
      actions: ['GetItem', 'PutItem', 'UpdateItem', 'Query'],
      leadingKeys: ['APPROVAL#*'],
      calledFrom: ['src/store/dynamo-approval-store.ts', 'src/store/dynamo-table.ts'],
    },
    // Session and always grants: record, check both at once.
    { actions: ['PutItem', 'BatchGetItem'], leadingKeys: ['GRANT#*'], calledFrom: ['src/store/dynamo-approval-store.ts'] },
    // Transcripts: load, append (meta update, batched messages).
    {
      actions: ['Query', 'UpdateItem', 'BatchWriteItem'],
      leadingKeys: ['TRANSCRIPT#*'],
      calledFrom: ['src/store/dynamo-transcript-store.ts', 'src/store/dynamo-table.ts'],
    },
    // Per-turn hook traces, their session and by-day indexes, and the undelivered-reply index
    // (`hookgate trace` and the console read them).
    {
      actions: ['BatchWriteItem'],
      leadingKeys: ['TRACE#*', 'TRACE_SESSION#*', 'TRACE_RECENT#*', 'UNDELIVERED_REPLY'],
      calledFrom: ['src/store/trace-store.ts'],
    },
    ALLOWLIST_READ,
  ],
  observer: [
    // Idempotency records of observer events: Powertools' layer (get, put, update, delete).
    {
      actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      leadingKeys: ['IDEMPOTENCY#*'],
      calledFrom: ['src/pipeline/idempotency-store.ts', POWERTOOLS_DYNAMODB_LAYER],
    },
    // The outbox sweep (scheduled on this function, infra/lib/telemetry-resources.ts): pending sessions, their items, deletes.
    {
      actions: ['Query', 'BatchWriteItem', 'DeleteItem', 'GetItem'],
      leadingKeys: ['OUTBOX#*', 'OUTBOX_PENDING'],
      calledFrom: ['src/pipeline/observer-outbox.ts'],
    },
    // The observer side's hook runs join their turn's trace, its session and by-day indexes
    // (src/agent/trace/observer-trace.ts: `hookgate trace`, the console).
    {
      actions: ['BatchWriteItem'],
      leadingKeys: ['TRACE#*', 'TRACE_SESSION#*', 'TRACE_RECENT#*'],
      calledFrom: ['src/store/trace-store.ts'],
    },
    ALLOWLIST_READ,
  ],
};

/**
 * What the gateway's console reads and writes on top of its own grants, granted only with
 * `-c console=true`: the recent-turns index (sessions) and the undelivered-reply index (list,
 * read one, record a retry). Turn traces (`TRACE#*`) and the allowlist the gateway reads already.
 */
export const CONSOLE_TABLE_ACCESS: readonly TableGrant[] = [
  {
    actions: ['Query'],
    leadingKeys: ['TRACE_RECENT#*', 'UNDELIVERED_REPLY'],
    calledFrom: ['src/store/trace-store.ts', 'src/store/undelivered-reply-store.ts'],
  },
  {
    actions: ['GetItem', 'UpdateItem'],
    leadingKeys: ['UNDELIVERED_REPLY'],
    calledFrom: ['src/store/undelivered-reply-store.ts', 'src/store/trace-store.ts'],
  },
];

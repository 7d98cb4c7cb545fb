import { PAYLOAD_KEY_PREFIX } from '../../src/pipeline/payload-store.ts';
import { ATTACHMENT_KEY_PREFIX } from '../../src/pipeline/attachment-store.ts';
import { WORKSPACE_KEY_PREFIX } from '../../src/agent/sandbox/tools-function-protocol.ts';
import type { FunctionName } from './table-access.ts';

/** The stack's queues, by what they carry (hookgate-stack.ts). */
export type QueueName = 'turns' | 'timers' | 'events' | 'turnsDlq' | 'timersDlq' | 'eventsDlq';

/** The stack's secrets (secret-keys.ts): the gateway's inbound secrets, and the reply secret. */
export type SecretName = 'gateway' | 'reply';

/** The stack's buckets: observer payloads and attachments, and the tools function's workspaces. */
export type BucketName = 'payloads' | 'workspaces';

/** Object actions under a key prefix of one bucket. */
export interface ObjectGrant {
  readonly actions: readonly ('GetObject' | 'PutObject')[];
  readonly bucket: BucketName;
  /** The keys these calls use: an IAM resource pattern after `<bucket ARN>/` (`*` any run of characters). */
  readonly keys: string;
}

/**
 * What a function may do to the stack's queues, topic, buckets, secrets and the tools function,
 * besides the table (table-access.ts) and its own log group. The queue a function is invoked from
 * is granted by its event source mapping, not here.
 */
export interface ResourceAccess {
  /** `SendMessage` (with CDK's `grantSendMessages`: `GetQueueAttributes`, `GetQueueUrl`). */
  readonly send: readonly QueueName[];
  /** Receive, delete and change visibility: read a queue's messages by hand (the console's DLQ panel). */
  readonly drain: readonly QueueName[];
  /** Publish to the events topic (observer envelopes). */
  readonly publishEvents: boolean;
  readonly objects: readonly ObjectGrant[];
  /** `ListBucket`: a missing object is then a 404, not a 403. */
  readonly list: readonly BucketName[];
  /** `GetSecretValue` (with CDK's `grantRead`: `DescribeSecret`). */
  readonly secrets: readonly SecretName[];
  /** Invoke the tools function (docs/security.md: the chat's tools run there). */
  readonly invokeTools: boolean;
}

/** Observer envelopes too big for SNS are written here by the publisher and read by the observer. */
const PAYLOAD_WRITE: ObjectGrant = { actions: ['PutObject'], bucket: 'payloads', keys: `${PAYLOAD_KEY_PREFIX}*` };

/**
 * Each function's grants beyond the table. The stack applies them (hookgate-stack.ts) and the
 * tests hold every SQS, SNS and S3 request a function makes to them (test/support/resource-grants.ts).
 */
export const RESOURCE_ACCESS: Readonly<Record<FunctionName, ResourceAccess>> = {
  gateway: {
    // Turn messages; observer events (a /reset's session:end, undelivered replies …).
    send: ['turns'],
    drain: [],
    publishEvents: true,
    objects: [PAYLOAD_WRITE],
    list: [],
    // Its inbound secrets, and the reply credentials for the answers it sends itself.
    secrets: ['gateway', 'reply'],
    invokeTools: false,
  },
  turn: {
    // A turn's follow-ups (a subagent's, an approval's resume) and its approval timers.
    send: ['turns', 'timers'],
    drain: [],
    publishEvents: true,
    objects: [
      PAYLOAD_WRITE,
      // Attachments: stored at intake (under the payload prefix), read back to inline images.
      { actions: ['GetObject'], bucket: 'payloads', keys: `${ATTACHMENT_KEY_PREFIX}*` },
      // Session workspaces: the archives the tools function unpacks and packs (presigned by the turn).
      { actions: ['GetObject', 'PutObject'], bucket: 'workspaces', keys: `${WORKSPACE_KEY_PREFIX}*` },
    ],
    list: ['workspaces'],
    secrets: ['reply'],
    invokeTools: true,
  },
  observer: {
    send: [],
    drain: [],
    // The outbox sweep publishes what SNS did not take (telemetry-resources.ts).
    publishEvents: true,
    objects: [{ actions: ['GetObject'], bucket: 'payloads', keys: `${PAYLOAD_KEY_PREFIX}*` }],
    list: [],
    // http hooks sign with a key kept there; OTLP export headers.
    secrets: ['reply'],
    invokeTools: false,
  },
};

/**
 * What the gateway's console adds with `-c console=true`: the DLQ panel lists the three DLQs
 * (receive, then release at once) and replays a message (send it back to its source queue,
 * then delete it from the DLQ), as `hookgate dlq` does.
 */
export const CONSOLE_RESOURCE_ACCESS: ResourceAccess = {
  send: ['timers', 'events'],
  drain: ['turnsDlq', 'timersDlq', 'eventsDlq'],
  publishEvents: false,
  objects: [],
  list: [],
  secrets: [],
  invokeTools: false,
};

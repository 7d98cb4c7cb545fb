import { SQSClient } from '@aws-sdk/client-sqs';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoTable, type DynamoTable } from '../store/dynamo-table.ts';
import { DynamoDeliveryDedupStore } from '../store/dynamo-delivery-dedup-store.ts';
import { DynamoSessionStore } from '../store/dynamo-session-store.ts';
import { DynamoTranscriptStore } from '../store/dynamo-transcript-store.ts';
import { DynamoApprovalStore } from '../store/dynamo-approval-store.ts';
import { DynamoAllowlistStore } from '../store/dynamo-allowlist-store.ts';
import { RESOURCE_ENV } from './resource-env.ts';
import { SnsObserverSink } from './sns-observer-sink.ts';
import { DynamoObserverOutbox } from './observer-outbox.ts';
import { S3PayloadStore } from './payload-store.ts';
import { S3AttachmentStore } from './attachment-store.ts';
import { SqsTurnQueue } from './turn-queue-sender.ts';
import { SqsTimerQueue } from './timer-queue-sender.ts';
import { lazyClient } from './lazy-client.ts';
import { AWS_REQUEST_TIMEOUTS, requestHandlerWith, type AwsRequestTimeouts } from './aws-request-timeouts.ts';
import { HookgateError } from '../errors/hookgate-error.ts';

/** Where the data plane's resources are; endpoints only for emulators (else the SDK's defaults). */
export interface DataPlaneResources {
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  endpoints?: { sqs?: string; sns?: string; s3?: string; dynamodb?: string };
  tableName: string;
  turnsQueueUrl: string;
  timersQueueUrl: string;
  eventsTopicArn: string;
  payloadBucket: string;
}

/** Everything the gateway and the turn runtime need from DynamoDB, SNS, SQS and S3. */
export interface DataPlane {
  readonly table: DynamoTable;
  readonly dedup: DynamoDeliveryDedupStore;
  readonly sessions: DynamoSessionStore;
  readonly transcripts: DynamoTranscriptStore;
  readonly approvals: DynamoApprovalStore;
  readonly allowlist: DynamoAllowlistStore;
  readonly payloads: S3PayloadStore;
  /** Inbound attachments' bytes (the payload bucket, under each session). */
  readonly attachments: S3AttachmentStore;
  readonly observerSink: SnsObserverSink;
  /** Envelopes SNS did not take, waiting on the table for the sweeper (`sweepOutbox`). */
  readonly outbox: DynamoObserverOutbox;
  readonly turnQueue: SqsTurnQueue;
  readonly timerQueue: SqsTimerQueue;
  /**
   * The observer consumer's idempotency records: the single table and a DynamoDB client of
   * their own (see `createDataPlane`). Pass it as `createObserverConsumer({ table })`.
   */
  readonly idempotency: { tableName: string; client: DynamoDBClient };
  /**
   * The SDK clients. SNS and S3 are loaders: their packages load on first use (the gateway
   * publishes only on a /reset or its start-up, S3 holds only oversized payloads).
   */
  readonly clients: { sqs: SQSClient; dynamodb: DynamoDBClient; sns: () => Promise<SNSClient>; s3: () => Promise<S3Client> };
  /** Closes the SDK clients' sockets. */
  destroy(): void;
}

/**
 * What the data plane needs of running emulators. `LocalAws` (src/local) extends it; declared here
 * so that the pipeline does not depend on the local runtime.
 */
export interface EmulatedAws {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  sqsEndpoint: string;
  snsEndpoint: string;
  s3Endpoint: string;
  dynamodbEndpoint: string;
  tableName: string;
  turnsQueueUrl: string;
  timersQueueUrl: string;
  eventsTopicArn: string;
  payloadBucket: string;
}

/** The resources of running emulators (`startEmulators()` or a `hookgate dev`'s endpoints file). */
export function dataPlaneFromLocalAws(aws: EmulatedAws): DataPlaneResources {
  return {
    region: aws.region,
    credentials: aws.credentials,
    endpoints: { sqs: aws.sqsEndpoint, sns: aws.snsEndpoint, s3: aws.s3Endpoint, dynamodb: aws.dynamodbEndpoint },
    tableName: aws.tableName,
    turnsQueueUrl: aws.turnsQueueUrl,
    timersQueueUrl: aws.timersQueueUrl,
    eventsTopicArn: aws.eventsTopicArn,
    payloadBucket: aws.payloadBucket,
  };
}

/** How the stores keep what they write (a deployment's settings, not its resources). */
export interface DataPlaneOptions {
  /** How long a transcript message is kept after it was written (none: for ever). */
  transcriptRetentionSeconds?: number;
  /** How long the clients wait on a connection (default {@link AWS_REQUEST_TIMEOUTS}). */
  requestTimeouts?: AwsRequestTimeouts;
}

export class DataPlaneEnvError extends HookgateError {
  override readonly name = 'DataPlaneEnvError';
}

/**
 * The data plane's resources from a parsed deployment config (`loadDeploymentConfig`: the
 * stack's variables, or the emulators under `hookgate dev`), which is the only reader of the
 * environment. A resource the config lacks is a `DataPlaneEnvError` naming its variable.
 *
 * @example
 * const plane = createDataPlane(dataPlaneFromConfig(loadDeploymentConfig(process.env)));
 */
export function dataPlaneFromConfig(config: { resources: Partial<DataPlaneResources> }): DataPlaneResources {
  const { resources } = config;
  const required = (key: 'tableName' | 'turnsQueueUrl' | 'timersQueueUrl' | 'eventsTopicArn' | 'payloadBucket'): string => {
    const value = resources[key];
    if (!value) throw new DataPlaneEnvError(`environment variable ${RESOURCE_ENV[key]} is missing or empty`);
    return value;
  };
  return {
    ...(resources.region ? { region: resources.region } : {}),
    ...(resources.credentials ? { credentials: resources.credentials } : {}),
    ...(resources.endpoints ? { endpoints: resources.endpoints } : {}),
    tableName: required('tableName'),
    turnsQueueUrl: required('turnsQueueUrl'),
    timersQueueUrl: required('timersQueueUrl'),
    eventsTopicArn: required('eventsTopicArn'),
    payloadBucket: required('payloadBucket'),
  };
}

/**
 * Builds the stores, the observer sink and the queue senders over one set of SDK clients.
 *
 * The clients of the per-event path (SQS: pollers and queue senders; SNS: the observer sink;
 * the idempotency store's DynamoDB client) cache their resolved middleware stack per command
 * class (`cacheMiddleware`): resolving it on every request was ~0.2 ms of CPU per DynamoDB
 * PutItem. The stores' document client refuses that option (lib-dynamodb adds per-command
 * marshalling middleware), so the idempotency store (Powertools' persistence layer, which
 * sends raw commands) gets a DynamoDB client of its own. Nothing here adds middleware per
 * request or sends with per-call options (either would bypass or defeat the cache).
 *
 * Every client gives up a connection that does not connect or falls silent
 * (`options.requestTimeouts`, default {@link AWS_REQUEST_TIMEOUTS}), so the SDK retries on a
 * fresh one instead of waiting out the function's timeout.
 *
 * @example
 * const plane = createDataPlane(dataPlaneFromLocalAws(aws));
 * const engine = createHookEngine({ home, observerSink: plane.observerSink, allowlist: plane.allowlist });
 * // …
 * plane.destroy();
 */
export function createDataPlane(resources: DataPlaneResources, options: DataPlaneOptions = {}): DataPlane {
  const base = {
    ...(resources.region ? { region: resources.region } : {}),
    ...(resources.credentials ? { credentials: resources.credentials } : {}),
    ...requestHandlerWith(options.requestTimeouts ?? AWS_REQUEST_TIMEOUTS),
  };
  const at = (endpoint: string | undefined) => (endpoint ? { endpoint } : {});
  const sqs = new SQSClient({ ...base, ...at(resources.endpoints?.sqs), cacheMiddleware: true });
  // Off the gateway's request path: loaded (package and client) on first use.
  const sns = lazyClient(async () => {
    const { SNSClient } = await import('@aws-sdk/client-sns');
    return new SNSClient({ ...base, ...at(resources.endpoints?.sns), cacheMiddleware: true });
  });
  const s3 = lazyClient(async () => {
    const { S3Client } = await import('@aws-sdk/client-s3');
    return new S3Client({
      ...base,
      ...at(resources.endpoints?.s3),
      ...(resources.endpoints?.s3 ? { forcePathStyle: true } : {}),
    });
  });
  const dynamodb = new DynamoDBClient({ ...base, ...at(resources.endpoints?.dynamodb) });
  // Built on first use: only the observer consumer needs it, and a client costs ~0.6 ms of
  // start-up that the gateway, the turn λ and the CLI would pay for nothing.
  let idempotency: DataPlane['idempotency'] | undefined;
  const table = createDynamoTable({ tableName: resources.tableName, client: dynamodb });
  const payloads = new S3PayloadStore(s3, resources.payloadBucket);
  const outbox = new DynamoObserverOutbox(table);
  return {
    table,
    dedup: new DynamoDeliveryDedupStore(table),
    sessions: new DynamoSessionStore(table),
    transcripts: new DynamoTranscriptStore(
      table,
      options.transcriptRetentionSeconds === undefined ? {} : { retentionSeconds: options.transcriptRetentionSeconds },
    ),
    approvals: new DynamoApprovalStore(table),
    allowlist: new DynamoAllowlistStore(table),
    payloads,
    attachments: new S3AttachmentStore(s3, resources.payloadBucket),
    outbox,
    observerSink: new SnsObserverSink({ sns, topicArn: resources.eventsTopicArn, payloads, outbox }),
    turnQueue: new SqsTurnQueue(sqs, resources.turnsQueueUrl),
    timerQueue: new SqsTimerQueue(sqs, resources.timersQueueUrl),
    get idempotency() {
      idempotency ??= {
        tableName: resources.tableName,
        client: new DynamoDBClient({ ...base, ...at(resources.endpoints?.dynamodb), cacheMiddleware: true }),
      };
      return idempotency;
    },
    clients: { sqs, sns, s3, dynamodb },
    destroy() {
      for (const client of [sqs, sns.built(), s3.built(), dynamodb]) client?.destroy();
      idempotency?.client.destroy();
    },
  };
}

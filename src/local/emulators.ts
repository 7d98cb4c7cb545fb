import type { AddressInfo } from 'node:net';
import { buildApp } from 'fauxqs';
import dynalite from 'dynalite';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  TURN_MAX_RECEIVE_COUNT,
  TURN_VISIBILITY_SECONDS,
  PAYLOAD_BUCKET,
  QUEUES,
  TABLE,
  TOPIC,
  visibilityTimeoutFor,
} from '../pipeline/topology.ts';
import type { EmulatedAws } from '../pipeline/data-plane.ts';

/** Endpoints and resource names of a running local AWS: what the clients need. */
export interface LocalAws extends EmulatedAws {
  /** fauxqs serves SQS, SNS and S3 on one port. */
  sqsEndpoint: string;
  turnsDlqUrl: string;
  eventsQueueUrl: string;
  eventsDlqUrl: string;
  timersDlqUrl: string;
}

export interface RunningEmulators extends LocalAws {
  stop(): Promise<void>;
}

export interface StartEmulatorsOptions {
  /** Use an already-running DynamoDB (e.g. DynamoDB Local) instead of starting dynalite. */
  dynamodbEndpoint?: string;
  /**
   * Use an already-running SQS/SNS/S3 endpoint (a fauxqs of the caller's, on one port)
   * instead of starting fauxqs; the queues, topic and bucket are created there.
   */
  sqsEndpoint?: string;
  /** Visibility timeout of the events queue in seconds (tests use short ones). */
  eventsVisibilityTimeout?: number;
  region?: string;
  /** Table name (tests sharing one DynamoDB Local use unique names). */
  tableName?: string;
  /**
   * A folder where dynalite keeps its data (LevelDB) across restarts; the table is reused
   * when it is already there. Default: in memory.
   */
  dynamodbPath?: string;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Starts fauxqs (SQS/SNS/S3) and dynalite (DynamoDB) in-process on 127.0.0.1 with free ports
 * and creates the resources of src/pipeline/topology.ts. Every client must be given the
 * endpoint explicitly: fauxqs's queue URLs name a host that does not resolve here.
 *
 * @example
 * const aws = await startEmulators();
 * // … new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials })
 * await aws.stop();
 */
export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const region = options.region ?? 'us-east-1';
  const tableName = options.tableName ?? TABLE.name;
  const fauxqs = options.sqsEndpoint ? undefined : buildApp({ logger: false, defaultRegion: region });
  const fauxqsUrl = options.sqsEndpoint ?? (await fauxqs!.listen({ host: '127.0.0.1', port: 0 }));

  let dynamodbEndpoint = options.dynamodbEndpoint;
  let dynaliteServer: ReturnType<typeof dynalite> | undefined;
  if (!dynamodbEndpoint) {
    dynaliteServer = dynalite({
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
      ...(options.dynamodbPath ? { path: options.dynamodbPath } : {}),
    });
    const server = dynaliteServer;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    dynamodbEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const clientConfig = { region, credentials: LOCAL_CREDENTIALS };
  const sqs = new SQSClient({ ...clientConfig, endpoint: fauxqsUrl });
  const sns = new SNSClient({ ...clientConfig, endpoint: fauxqsUrl });
  const s3 = new S3Client({ ...clientConfig, endpoint: fauxqsUrl, forcePathStyle: true });
  const ddb = new DynamoDBClient({ ...clientConfig, endpoint: dynamodbEndpoint });

  const createQueue = async (name: string, attributes: Record<string, string>) => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    return { url: QueueUrl!, arn: Attributes!.QueueArn! };
  };
  const redrive = (dlqArn: string, maxReceiveCount: number = MAX_RECEIVE_COUNT) =>
    JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount });

  const turnsDlq = await createQueue(QUEUES.turnsDlq.name, { FifoQueue: 'true' });
  const turns = await createQueue(QUEUES.turns.name, {
    FifoQueue: 'true',
    // As the stack has it: a failing turn leaves within TURN_FAILURE_BOUND_SECONDS.
    VisibilityTimeout: String(TURN_VISIBILITY_SECONDS),
    RedrivePolicy: redrive(turnsDlq.arn, TURN_MAX_RECEIVE_COUNT),
  });
  const eventsDlq = await createQueue(QUEUES.eventsDlq.name, {});
  const events = await createQueue(QUEUES.events.name, {
    VisibilityTimeout: String(options.eventsVisibilityTimeout ?? visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.observer)),
    RedrivePolicy: redrive(eventsDlq.arn),
  });
  // As the stack has it: a timer that keeps failing leaves for its DLQ, not a retry every visibility timeout forever.
  const timersDlq = await createQueue(QUEUES.timersDlq.name, {});
  const timers = await createQueue(QUEUES.timers.name, {
    VisibilityTimeout: String(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.turn)),
    RedrivePolicy: redrive(timersDlq.arn),
  });
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: TOPIC.events.name }));
  await sns.send(
    new SubscribeCommand({
      TopicArn,
      Protocol: 'sqs',
      Endpoint: events.arn,
      Attributes: { RawMessageDelivery: 'true' },
    }),
  );
  await s3.send(new CreateBucketCommand({ Bucket: PAYLOAD_BUCKET.name }));
  await createTableUnlessPresent(ddb, {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: TABLE.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE.sortKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
  });
  for (const client of [sqs, sns, s3, ddb]) client.destroy();

  return {
    region,
    credentials: LOCAL_CREDENTIALS,
    sqsEndpoint: fauxqsUrl,
    snsEndpoint: fauxqsUrl,
    s3Endpoint: fauxqsUrl,
    dynamodbEndpoint,
    tableName,
    turnsQueueUrl: turns.url,
    turnsDlqUrl: turnsDlq.url,
    eventsQueueUrl: events.url,
    eventsDlqUrl: eventsDlq.url,
    timersQueueUrl: timers.url,
    timersDlqUrl: timersDlq.url,
    eventsTopicArn: TopicArn!,
    payloadBucket: PAYLOAD_BUCKET.name,
    async stop() {
      await fauxqs?.close();
      if (dynaliteServer) {
        const server = dynaliteServer;
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** A persisted dynalite already has the table from the last run. */
async function createTableUnlessPresent(ddb: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  try {
    await ddb.send(new CreateTableCommand(input));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

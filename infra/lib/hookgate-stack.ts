import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  aws_cloudwatch as cloudwatch,
  aws_dynamodb as dynamodb,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_lambda_event_sources as sources,
  aws_lambda_nodejs as nodejs,
  aws_logs as logs,
  aws_s3 as s3,
  aws_secretsmanager as secretsmanager,
  aws_sns as sns,
  aws_sns_subscriptions as subscriptions,
  aws_sqs as sqs,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import {
  EVENT_TYPE_ATTRIBUTE,
  FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  TABLE,
  visibilityTimeoutFor,
} from '../../src/pipeline/topology.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { functionBundling, type HooksBundle } from './function-bundling.ts';
import { GENERATED_SECRET_KEY, SECRET_KEYS } from './secret-keys.ts';
import type { TelemetrySubscriber } from './telemetry-subscribers.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface HookgateStackProps extends StackProps {
  /** What happens to the table and payload bucket on `cdk destroy` (context `removalPolicy`). */
  readonly dataRemovalPolicy: RemovalPolicy;
  /** Extra SQS queues for telemetry consumers (context `telemetrySubscribers`). */
  readonly telemetrySubscribers: readonly TelemetrySubscriber[];
  /** The hooks home discovered at synth time (context `hooksHome`); none = no hooks. */
  readonly hooksBundle?: HooksBundle;
  /** Non-secret settings passed as environment (context `allowedUsers`, `model`, `modelBaseUrl`). */
  readonly settings?: { allowedUsers?: string; model?: string; modelBaseUrl?: string };
  /** CloudWatch log retention of the functions. */
  readonly logRetention?: logs.RetentionDays;
}

/**
 * hookgate in one stack: a Function URL → gateway λ; the FIFO turns queue → turn λ; the
 * events topic → observer queue → observer λ (and any telemetry queues); one DynamoDB
 * table; the secrets; alarms on DLQ depth and function errors.
 *
 * A Function URL rather than API Gateway: every platform verifies its own signature in the
 * app, so API Gateway's auth adds nothing; the URL has no 30 s integration limit, no extra
 * hop and no per-request charge, and passes the raw body the signatures need.
 */
export class HookgateStack extends Stack {
  constructor(scope: Construct, id: string, props: HookgateStackProps) {
    super(scope, id, props);

    const table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: props.dataRemovalPolicy,
    });

    const payloads = new s3.Bucket(this, 'Payloads', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(14) }],
      removalPolicy: props.dataRemovalPolicy,
      autoDeleteObjects: false,
    });

    const secret = new secretsmanager.Secret(this, 'Secrets', {
      description: 'hookgate: platform secrets, model API key and the /v1 bearer token (JSON)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify(Object.fromEntries(SECRET_KEYS.map((key) => [key, '']))),
        generateStringKey: GENERATED_SECRET_KEY,
        excludePunctuation: true,
        passwordLength: 48,
      },
    });

    const turnsDlq = new sqs.Queue(this, 'TurnsDlq', {
      fifo: true,
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
    });
    const turns = new sqs.Queue(this, 'Turns', {
      fifo: true,
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.turn)),
      deadLetterQueue: { queue: turnsDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });
    const timers = new sqs.Queue(this, 'Timers', {
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.turn)),
      deadLetterQueue: { queue: new sqs.Queue(this, 'TimersDlq', { enforceSSL: true, retentionPeriod: Duration.days(14) }), maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });
    const eventsDlq = new sqs.Queue(this, 'EventsDlq', { retentionPeriod: Duration.days(14), enforceSSL: true });
    const events = new sqs.Queue(this, 'Events', {
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.observer)),
      deadLetterQueue: { queue: eventsDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });

    const topic = new sns.Topic(this, 'EventsTopic', { displayName: 'hookgate observer events' });
    topic.addSubscription(new subscriptions.SqsSubscription(events, { rawMessageDelivery: true }));
    for (const subscriber of props.telemetrySubscribers) {
      const queue = new sqs.Queue(this, `Telemetry-${subscriber.name}`, {
        retentionPeriod: Duration.days(4),
        enforceSSL: true,
      });
      topic.addSubscription(
        new subscriptions.SqsSubscription(queue, {
          rawMessageDelivery: true,
          ...(subscriber.eventTypes
            ? { filterPolicy: { [EVENT_TYPE_ATTRIBUTE]: sns.SubscriptionFilter.stringFilter({ allowlist: subscriber.eventTypes }) } }
            : {}),
        }),
      );
      new CfnOutput(this, `TelemetryQueueUrl-${subscriber.name}`, { value: queue.queueUrl });
    }

    const resourceEnv: Record<string, string> = {
      [RESOURCE_ENV.tableName]: table.tableName,
      [RESOURCE_ENV.turnsQueueUrl]: turns.queueUrl,
      [RESOURCE_ENV.timersQueueUrl]: timers.queueUrl,
      [RESOURCE_ENV.eventsTopicArn]: topic.topicArn,
      [RESOURCE_ENV.payloadBucket]: payloads.bucketName,
      [RESOURCE_ENV.secretArn]: secret.secretArn,
      [RESOURCE_ENV.deploymentVersion]: props.hooksBundle?.fingerprint ?? 'no-hooks',
      ...(props.settings?.allowedUsers ? { HOOKGATE_ALLOWED_USERS: props.settings.allowedUsers } : {}),
      ...(props.settings?.model ? { HOOKGATE_MODEL: props.settings.model } : {}),
      ...(props.settings?.modelBaseUrl ? { HOOKGATE_MODEL_BASE_URL: props.settings.modelBaseUrl } : {}),
    };

    const makeFunction = (name: 'gateway' | 'turn' | 'observer', memorySize: number) => {
      const logGroup = new logs.LogGroup(this, `${name}-logs`, {
        retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      const { environment: bundleEnv, ...bundling } = functionBundling({
        repoRoot: REPO_ROOT,
        functionName: name,
        hooksBundle: props.hooksBundle,
      });
      return new nodejs.NodejsFunction(this, `${name}-fn`, {
        ...bundling,
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        memorySize,
        timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS[name]),
        environment: { ...resourceEnv, ...bundleEnv },
        logGroup,
        loggingFormat: lambda.LoggingFormat.JSON,
      });
    };
    const gateway = makeFunction('gateway', 1024);
    const turn = makeFunction('turn', 1024);
    const observer = makeFunction('observer', 512);

    const url = gateway.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });

    turn.addEventSource(new sources.SqsEventSource(turns, { batchSize: 1, reportBatchItemFailures: true }));
    turn.addEventSource(
      new sources.SqsEventSource(timers, { batchSize: 10, maxBatchingWindow: Duration.seconds(1), reportBatchItemFailures: true }),
    );
    observer.addEventSource(
      new sources.SqsEventSource(events, { batchSize: 10, maxBatchingWindow: Duration.seconds(1), reportBatchItemFailures: true }),
    );

    // Least privilege: each function gets only the actions it uses, named one by one.
    for (const fn of [gateway, turn, observer]) {
      table.grantReadWriteData(fn);
    }
    for (const fn of [gateway, turn]) {
      secret.grantRead(fn);
      turns.grantSendMessages(fn);
      topic.grantPublish(fn);
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [payloads.arnForObjects('*')] }));
    }
    timers.grantSendMessages(turn);
    observer.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [payloads.arnForObjects('*')] }));

    const alarmOn = (id: string, description: string, metric: cloudwatch.IMetric) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    const minute = { period: Duration.minutes(1) };
    alarmOn('TurnsDlqDepth', 'hookgate: turns are waiting in the turns DLQ', turnsDlq.metricApproximateNumberOfMessagesVisible(minute));
    alarmOn('EventsDlqDepth', 'hookgate: observer events are waiting in the events DLQ (hookgate dlq list)', eventsDlq.metricApproximateNumberOfMessagesVisible(minute));
    alarmOn('GatewayErrors', 'hookgate: the gateway function reported errors', gateway.metricErrors(minute));
    alarmOn('TurnErrors', 'hookgate: the turn function reported errors', turn.metricErrors(minute));
    alarmOn('ObserverErrors', 'hookgate: the observer function reported errors', observer.metricErrors(minute));

    new CfnOutput(this, 'WebhookBaseUrl', { value: url.url, description: 'append webhooks/<platform> for each platform' });
    new CfnOutput(this, 'EventsTopicArn', { value: topic.topicArn, description: 'subscribe telemetry consumers here' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SecretArn', { value: secret.secretArn });
    new CfnOutput(this, 'EventsDlqUrl', { value: eventsDlq.queueUrl });
    new CfnOutput(this, 'TurnsDlqUrl', { value: turnsDlq.queueUrl });
    new CfnOutput(this, 'EventsQueueUrl', { value: events.queueUrl });
  }
}

import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  aws_dynamodb as dynamodb,
  aws_iam as iam,
  aws_kms as kms,
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
import type { Construct, IConstruct } from 'constructs';
import {
  EVENT_TYPE_ATTRIBUTE,
  FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  TABLE,
  visibilityTimeoutFor,
} from '../../src/pipeline/topology.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { PAYLOAD_KEY_PREFIX } from '../../src/pipeline/payload-store.ts';
import { functionBundling, type HooksBundle } from './function-bundling.ts';
import { GENERATED_SECRET_KEY, SECRET_KEYS } from './secret-keys.ts';
import { CONSOLE_TABLE_ACCESS, TABLE_ACCESS, type FunctionName, type TableGrant } from './table-access.ts';
import type { TelemetrySubscriber } from './telemetry-subscribers.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Acknowledges one AWS Solutions (cdk-nag) finding on a construct, with the reason it is accepted. */
function acceptFinding(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

export interface HookgateStackProps extends StackProps {
  /** What happens to the table and payload bucket on `cdk destroy` (context `removalPolicy`). */
  readonly dataRemovalPolicy: RemovalPolicy;
  /** Extra SQS queues for telemetry consumers (context `telemetrySubscribers`). */
  readonly telemetrySubscribers: readonly TelemetrySubscriber[];
  /** The hooks home discovered at synth time (context `hooksHome`); none = no hooks. */
  readonly hooksBundle?: HooksBundle;
  /** Non-secret settings passed as environment (context `allowedUsers`, `approvers`, `model`, `modelBaseUrl`). */
  readonly settings?: { allowedUsers?: string; approvers?: string; model?: string; modelBaseUrl?: string };
  /** CloudWatch log retention of the functions. */
  readonly logRetention?: logs.RetentionDays;
  /** Reserved concurrency of the gateway λ (context `gatewayConcurrency`, default 50). */
  readonly gatewayConcurrency?: number;
  /** Email subscribed to the alarm topic (context `alarmEmail`). */
  readonly alarmEmail?: string;
  /**
   * The console at `/console` of the gateway, behind the `/v1` token (context `console`,
   * default off). On: `HOOKGATE_CONSOLE=1` and the DLQ URLs on the gateway, and the grants
   * its panels need (DLQ list and replay, the console's table indexes), nothing without it.
   */
  readonly console?: boolean;
}

/** Lambda pollers per SQS event source at most: a burst of turns or events cannot take the account's concurrency. */
export const EVENT_SOURCE_MAX_CONCURRENCY = { turns: 20, timers: 5, events: 10 } as const;

/** The oldest turn waiting longer than this (seconds) alarms: turns are stuck or starved. */
export const OLDEST_TURN_ALARM_SECONDS = 2 * FUNCTION_TIMEOUT_SECONDS.turn;

/**
 * hookgate in one stack: a Function URL → gateway λ; the FIFO turns queue → turn λ; the
 * events topic → observer queue → observer λ (and any telemetry queues); one DynamoDB
 * table; the secrets; alarms (every DLQ, errors, throttles, the oldest turn) on an alarm topic.
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
    acceptFinding(payloads, 'AwsSolutions-S1', 'transient observer payloads (14-day lifecycle), written and read only by this stack\'s roles; an access-log bucket would cost more than it tells');

    const secret = new secretsmanager.Secret(this, 'Secrets', {
      description: 'hookgate: platform secrets, model API key and the /v1 bearer token (JSON)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify(Object.fromEntries(SECRET_KEYS.map((key) => [key, '']))),
        generateStringKey: GENERATED_SECRET_KEY,
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    acceptFinding(secret, 'AwsSolutions-SMG4', 'platform tokens are issued and rotated by each platform, not by a Lambda rotation function; the /v1 token is rotated by putting a new value');

    // SQS-managed server-side encryption, said out loud (no key to pay for or to grant).
    const encryption = sqs.QueueEncryption.SQS_MANAGED;
    const turnsDlq = new sqs.Queue(this, 'TurnsDlq', {
      encryption,
      fifo: true,
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
    });
    const turns = new sqs.Queue(this, 'Turns', {
      encryption,
      fifo: true,
      // High-throughput FIFO: ordering and dedup per chat (the message group) is all a turn
      // needs, and the per-queue mode's 300 sends a second binds below 1M chats (docs/capacity.md).
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.turn)),
      deadLetterQueue: { queue: turnsDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });
    const timersDlq = new sqs.Queue(this, 'TimersDlq', { encryption, enforceSSL: true, retentionPeriod: Duration.days(14) });
    const timers = new sqs.Queue(this, 'Timers', {
      encryption,
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.turn)),
      deadLetterQueue: { queue: timersDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });
    const eventsDlq = new sqs.Queue(this, 'EventsDlq', { encryption, retentionPeriod: Duration.days(14), enforceSSL: true });
    const events = new sqs.Queue(this, 'Events', {
      encryption,
      visibilityTimeout: Duration.seconds(visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.observer)),
      deadLetterQueue: { queue: eventsDlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      enforceSSL: true,
    });

    // Encrypted with the AWS-managed SNS key: its key policy already lets this account's
    // principals use it through SNS, so publishers need no KMS grant and no key is billed.
    const topic = new sns.Topic(this, 'EventsTopic', {
      displayName: 'hookgate observer events',
      masterKey: kms.Alias.fromAliasName(this, 'AwsManagedSnsKey', 'alias/aws/sns'),
      enforceSSL: true,
    });
    topic.addSubscription(new subscriptions.SqsSubscription(events, { rawMessageDelivery: true }));
    for (const subscriber of props.telemetrySubscribers) {
      const queue = new sqs.Queue(this, `Telemetry-${subscriber.name}`, {
        encryption,
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
      acceptFinding(queue, 'AwsSolutions-SQS3', 'read by an external telemetry consumer, whose retries are its own; unconsumed events expire after 4 days');
      new CfnOutput(this, `TelemetryQueueUrl-${subscriber.name}`, { value: queue.queueUrl });
    }

    const resourceEnv: Record<string, string> = {
      [RESOURCE_ENV.tableName]: table.tableName,
      [RESOURCE_ENV.turnsQueueUrl]: turns.queueUrl,
      [RESOURCE_ENV.timersQueueUrl]: timers.queueUrl,
      [RESOURCE_ENV.eventsTopicArn]: topic.topicArn,
      [RESOURCE_ENV.payloadBucket]: payloads.bucketName,
      [RESOURCE_ENV.deploymentVersion]: props.hooksBundle?.fingerprint ?? 'no-hooks',
      ...(props.settings?.allowedUsers ? { HOOKGATE_ALLOWED_USERS: props.settings.allowedUsers } : {}),
      ...(props.settings?.approvers ? { HOOKGATE_APPROVERS: props.settings.approvers } : {}),
      ...(props.settings?.model ? { HOOKGATE_MODEL: props.settings.model } : {}),
      ...(props.settings?.modelBaseUrl ? { HOOKGATE_MODEL_BASE_URL: props.settings.modelBaseUrl } : {}),
    };

    const makeFunction = (name: FunctionName, memorySize: number, extra: Partial<nodejs.NodejsFunctionProps> = {}) => {
      const logGroup = new logs.LogGroup(this, `${name}-logs`, {
        retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      // A role of its own with no AWS-managed policy: it may write its own log group, nothing else by default.
      const role = new iam.Role(this, `${name}-role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
      const { environment: bundleEnv, ...bundling } = functionBundling({
        repoRoot: REPO_ROOT,
        functionName: name,
        hooksBundle: props.hooksBundle,
      });
      const fn = new nodejs.NodejsFunction(this, `${name}-fn`, {
        ...bundling,
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        memorySize,
        timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS[name]),
        // The observer runs hooks on events only: it gets no platform secrets (and no grant to read them).
        environment: { ...resourceEnv, ...(name === 'observer' ? {} : { [RESOURCE_ENV.secretArn]: secret.secretArn }), ...bundleEnv },
        logGroup,
        role,
        ...extra,
        loggingFormat: lambda.LoggingFormat.JSON,
      });
      acceptFinding(fn, 'AwsSolutions-L1', 'the runtime is nodejs22.x by design (architecture §3); moving to a newer one is a deliberate, tested change');
      acceptFinding(
        role,
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(logGroup.node.defaultChild as logs.CfnLogGroup)}.Arn>:*]`,
        'log streams are created by the runtime under names unknown at deploy time; the grant is this function\'s own log group',
      );
      acceptFinding(
        role,
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(payloads.node.defaultChild as s3.CfnBucket)}.Arn>/${PAYLOAD_KEY_PREFIX}*]`,
        'payload objects are keyed by date and event id, unknown at deploy time; the grant is one action under this prefix of this bucket',
      );
      return fn;
    };
    // The Function URL is public by design (platforms sign, the app verifies): reserved
    // concurrency caps what a flood of forged requests can take from the turn and observer λs.
    const gateway = makeFunction('gateway', 1024, { reservedConcurrentExecutions: props.gatewayConcurrency ?? 50 });
    const turn = makeFunction('turn', 1024);
    const observer = makeFunction('observer', 512);

    const url = gateway.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });

    turn.addEventSource(
      new sources.SqsEventSource(turns, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.turns }),
    );
    turn.addEventSource(
      new sources.SqsEventSource(timers, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.timers,
      }),
    );
    observer.addEventSource(
      new sources.SqsEventSource(events, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.events,
      }),
    );

    // Least privilege: each function gets only the table actions its code calls, on the
    // partition keys it uses (table-access.ts), and every other grant named action by action.
    const functions: Record<FunctionName, nodejs.NodejsFunction> = { gateway, turn, observer };
    const grantsOf = (name: FunctionName): readonly TableGrant[] =>
      name === 'gateway' && props.console ? [...TABLE_ACCESS.gateway, ...CONSOLE_TABLE_ACCESS] : TABLE_ACCESS[name];
    for (const [name, fn] of Object.entries(functions) as [FunctionName, nodejs.NodejsFunction][]) {
      for (const grant of grantsOf(name)) {
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: grant.actions.map((action) => `dynamodb:${action}`),
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...grant.leadingKeys] } },
          }),
        );
      }
    }
    for (const fn of [gateway, turn]) {
      secret.grantRead(fn);
      turns.grantSendMessages(fn);
      topic.grantPublish(fn);
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [payloads.arnForObjects(`${PAYLOAD_KEY_PREFIX}*`)] }));
    }
    timers.grantSendMessages(turn);

    if (props.console) {
      // The console's DLQ panel: list (receive, then release at once) and replay (send back to
      // the source queue, then delete), as `hookgate dlq` does — on these queues only.
      const dlqPairs: [string, sqs.Queue, sqs.Queue, string][] = [
        [RESOURCE_ENV.turnsDlqUrl, turnsDlq, turns, RESOURCE_ENV.turnsQueueUrl],
        [RESOURCE_ENV.timersDlqUrl, timersDlq, timers, RESOURCE_ENV.timersQueueUrl],
        [RESOURCE_ENV.eventsDlqUrl, eventsDlq, events, RESOURCE_ENV.eventsQueueUrl],
      ];
      gateway.addEnvironment('HOOKGATE_CONSOLE', '1');
      for (const [dlqVar, dlq, source, sourceVar] of dlqPairs) {
        gateway.addEnvironment(dlqVar, dlq.queueUrl);
        gateway.addEnvironment(sourceVar, source.queueUrl);
        dlq.grant(gateway, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility');
      }
      timers.grantSendMessages(gateway);
      events.grantSendMessages(gateway);
    }
    observer.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [payloads.arnForObjects(`${PAYLOAD_KEY_PREFIX}*`)] }));

    // Every alarm notifies the alarm topic; `-c alarmEmail=ADDRESS` subscribes an address.
    const alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'hookgate alarms', enforceSSL: true });
    if (props.alarmEmail) alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const notify = new cloudwatchActions.SnsAction(alarmTopic);
    const alarmOn = (id: string, description: string, metric: cloudwatch.IMetric, threshold = 0) => {
      const alarm = new cloudwatch.Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(notify);
      return alarm;
    };
    const minute = { period: Duration.minutes(1) };
    alarmOn('TurnsDlqDepth', 'hookgate: turns are waiting in the turns DLQ', turnsDlq.metricApproximateNumberOfMessagesVisible(minute));
    alarmOn('TimersDlqDepth', 'hookgate: approval timers are waiting in the timers DLQ (approvals may never time out)', timersDlq.metricApproximateNumberOfMessagesVisible(minute));
    alarmOn('EventsDlqDepth', 'hookgate: observer events are waiting in the events DLQ (hookgate dlq list)', eventsDlq.metricApproximateNumberOfMessagesVisible(minute));
    alarmOn(
      'OldestTurnAge',
      `hookgate: a turn has waited more than ${OLDEST_TURN_ALARM_SECONDS} s in the turns queue (stuck or starved turn λ)`,
      turns.metricApproximateAgeOfOldestMessage({ ...minute, statistic: cloudwatch.Stats.MAXIMUM }),
      OLDEST_TURN_ALARM_SECONDS,
    );
    for (const [name, fn] of Object.entries(functions)) {
      const title = name[0]!.toUpperCase() + name.slice(1);
      alarmOn(`${title}Errors`, `hookgate: the ${name} function reported errors`, fn.metricErrors(minute));
      alarmOn(`${title}Throttles`, `hookgate: the ${name} function was throttled (concurrency limits reached)`, fn.metricThrottles(minute));
    }

    new CfnOutput(this, 'WebhookBaseUrl', { value: url.url, description: 'append webhooks/<platform> for each platform' });
    new CfnOutput(this, 'EventsTopicArn', { value: topic.topicArn, description: 'subscribe telemetry consumers here' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SecretArn', { value: secret.secretArn });
    new CfnOutput(this, 'EventsDlqUrl', { value: eventsDlq.queueUrl });
    new CfnOutput(this, 'TurnsDlqUrl', { value: turnsDlq.queueUrl });
    new CfnOutput(this, 'EventsQueueUrl', { value: events.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn, description: 'every alarm notifies this topic' });

  }
}

import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  SecretValue,
  Stack,
  type StackProps,
  aws_cloudwatch as cloudwatch,
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
import type { Construct } from 'constructs';
import { METRIC_NAMESPACE } from '../../src/telemetry/turn-metrics.ts';
import { STRAY_ERROR_EVENTS } from '../../functions/support/stray-hook-errors.ts';
import {
  EVENT_TYPE_ATTRIBUTE,
  FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  TABLE,
  TURN_MAX_RECEIVE_COUNT,
  TURN_VISIBILITY_SECONDS,
  visibilityTimeoutFor,
} from '../../src/pipeline/topology.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { PAYLOAD_KEY_PREFIX } from '../../src/pipeline/payload-store.ts';
import { WORKSPACE_KEY_PREFIX } from '../../src/agent/sandbox/tools-function-protocol.ts';
import { ATTACHMENT_KEY_PREFIX } from '../../src/pipeline/attachment-store.ts';
import { functionBundling, type HooksBundle } from './function-bundling.ts';
import { GATEWAY_SECRET_INITIAL_KEYS, GENERATED_SECRET_KEY, REPLY_SECRET_INITIAL_KEYS } from './secret-keys.ts';
import { addTelemetryResources } from './telemetry-resources.ts';
import { CONSOLE_TABLE_ACCESS, TABLE_ACCESS, type FunctionName, type TableGrant } from './table-access.ts';
import {
  CONSOLE_RESOURCE_ACCESS,
  RESOURCE_ACCESS,
  type BucketName,
  type QueueName,
  type ResourceAccess,
  type SecretName,
} from './resource-access.ts';
import type { TelemetrySubscriber } from './telemetry-subscribers.ts';
import { ToolsFunction, type ToolsNetwork } from './tools-function.ts';
import { addStackAlarms, type MonitoredDlq, type MonitoredFunction, type MonitoredQueue } from './alarms.ts';
import { addStackDashboard } from './dashboard.ts';
import { addIngress } from './ingress.ts';
import { acceptFinding } from './accept-finding.ts';
import {
  DEFAULT_TURN_CONCURRENCY,
  EVENT_SOURCE_MAX_CONCURRENCY,
  type AlarmDestination,
  type IngressOptions,
  type StackContext,
} from './stack-context.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface HookgateStackProps extends StackProps {
  /** What happens to the table and payload bucket on `cdk destroy` (context `removalPolicy`). */
  readonly dataRemovalPolicy: RemovalPolicy;
  /** Extra SQS queues for telemetry consumers (context `telemetrySubscribers`). */
  readonly telemetrySubscribers: readonly TelemetrySubscriber[];
  /** The hooks home discovered at synth time (context `hooksHome`); none = no hooks. */
  readonly hooksBundle?: HooksBundle;
  /** Non-secret settings passed as environment (context `allowedUsers`, `approvers`, `model`, `modelBaseUrl`, `transcriptRetentionDays`). */
  readonly settings?: StackContext['settings'];
  /** CloudWatch log retention of the functions. */
  readonly logRetention?: logs.RetentionDays;
  /**
   * Reserved concurrency of the gateway λ (context `gatewayConcurrency`): none unless asked,
   * since reserving N needs N + 100 of the account's concurrency quota (new accounts have less).
   */
  readonly gatewayConcurrency?: number;
  /** At most this many turn λs at once (context `turnConcurrency`; `none`: the account's quota only). Default 200. */
  readonly turnConcurrency?: number | 'none';
  /** At most this many observer λs at once (context `observerConcurrency`; `none`: the account's quota only). Default 10. */
  readonly observerConcurrency?: number | 'none';
  /** Where the alarms go (context `alarmEmail`, `alarmTopicArn` or `alarms=none`): required, so that someone is paged. */
  readonly alarms: AlarmDestination;
  /** The front door (context `ingress`, `wafAclArn`, `domainName`, `certificateArn`); default a Function URL. */
  readonly ingress?: IngressOptions;
  /**
   * The console at `/console` of the gateway, behind the `/v1` token (context `console`,
   * default off). On: `HOOKGATE_CONSOLE=1` and the DLQ URLs on the gateway, and the grants
   * its panels need (DLQ list and replay, the console's table indexes), nothing without it.
   */
  readonly console?: boolean;
  /** The tools function's network (context `toolsNetwork`, default `none`): tools-function.ts. */
  readonly toolsNetwork?: ToolsNetwork;
  /** `-c otlpEndpoint=URL`: OTLP export from the observer (infra/lib/telemetry-resources.ts). */
  readonly otlpEndpoint?: string;
}

export { EVENT_SOURCE_MAX_CONCURRENCY } from './stack-context.ts';

/**
 * The oldest turn waiting longer than this (seconds) alarms: turns are stuck or starved. Past the
 * time a failing turn takes to reach the DLQ (2 receives × 135 s), which `TurnsDlqDepth` reports:
 * at 240 s, every given-up turn paged twice.
 */
export const OLDEST_TURN_ALARM_SECONDS = TURN_MAX_RECEIVE_COUNT * TURN_VISIBILITY_SECONDS + 60;

/** Timers wait up to 900 s by design (SQS's longest delay): older than that and two turn timeouts, they are stuck. */
export const OLDEST_TIMER_ALARM_SECONDS = 900 + 2 * FUNCTION_TIMEOUT_SECONDS.turn;

/**
 * Observer events older than this (seconds) alarm: the observer λ is failing or starved. Two of
 * the events queue's visibility timeouts (360 s each): at 300 s, any one retried event paged.
 */
export const OLDEST_EVENT_ALARM_SECONDS = 2 * visibilityTimeoutFor(FUNCTION_TIMEOUT_SECONDS.observer);

/** A telemetry queue's consumer is someone else's; an hour-old event means it stopped reading. */
export const OLDEST_TELEMETRY_ALARM_SECONDS = 3600;

/**
 * hookgate in one stack: a Function URL → gateway λ; the FIFO turns queue → turn λ; the
 * events topic → observer queue → observer λ (and any telemetry queues); the tools λ the turn λ
 * invokes for the chat's tools (tools-function.ts); one DynamoDB table; the gateway and reply
 * secrets; alarms (every DLQ, errors, throttles, the oldest turn) on an alarm topic.
 *
 * A Function URL rather than API Gateway: every platform verifies its own signature in the
 * app, so API Gateway's auth adds nothing; the URL has no 30 s integration limit, no extra
 * hop and no per-request charge, and passes the raw body the signatures need.
 */
export class HookgateStack extends Stack {
  /** The sandboxed tools function (functions/tools.ts), its role and workspace bucket. */
  readonly tools: ToolsFunction;

  constructor(scope: Construct, id: string, props: HookgateStackProps) {
    super(scope, id, props);

    const table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // A `cdk destroy` or a replacement cannot take the sessions, transcripts and allowlist with it,
      // unless the operator asked for the table to go with the stack (-c removalPolicy=destroy).
      deletionProtection: props.dataRemovalPolicy !== RemovalPolicy.DESTROY,
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
    acceptFinding(
      payloads,
      'AwsSolutions-S1',
      "transient observer payloads (14-day lifecycle), written and read only by this stack's roles; an access-log bucket would cost more than it tells",
    );

    // Two secrets, split by who may read them (secret-keys.ts): the gateway's (inbound
    // verification, the /v1 token) and the reply secret (reply credentials, the model key).
    const secret = new secretsmanager.Secret(this, 'Secrets', {
      description: 'hookgate gateway: inbound verification secrets and the /v1 bearer token (JSON); read by the gateway alone',
      generateSecretString: {
        // Frozen (secret-keys.ts): a changed template would generate the secret anew on deploy.
        secretStringTemplate: JSON.stringify(Object.fromEntries(GATEWAY_SECRET_INITIAL_KEYS.map((key) => [key, '']))),
        generateStringKey: GENERATED_SECRET_KEY,
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    acceptFinding(
      secret,
      'AwsSolutions-SMG4',
      'platform tokens are issued and rotated by each platform, not by a Lambda rotation function; the /v1 token is rotated by putting a new value',
    );
    const replySecret = new secretsmanager.Secret(this, 'ReplySecrets', {
      description:
        'hookgate replies: platform reply credentials and the model API key (JSON); read by the gateway, the turn and the observer functions',
      // Frozen (secret-keys.ts): a changed value would be written over the operator's on deploy.
      secretObjectValue: Object.fromEntries(REPLY_SECRET_INITIAL_KEYS.map((key) => [key, SecretValue.unsafePlainText('')])),
    });
    acceptFinding(
      replySecret,
      'AwsSolutions-SMG4',
      'platform tokens and the model key are issued and rotated by their issuers, not by a Lambda rotation function',
    );

    // SQS-managed server-side encryption, said out loud (no key to pay for or to grant).
    const encryption = sqs.QueueEncryption.SQS_MANAGED;
    const turnsDlq = new sqs.Queue(this, 'TurnsDlq', {
      encryption,
      fifo: true,
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
    });
    // FIFO: a failing turn holds its chat's next messages; two receives of turn timeout + 15 s
    // keep that within TURN_FAILURE_BOUND_SECONDS (src/pipeline/topology.ts), then the turns DLQ.
    const turns = new sqs.Queue(this, 'Turns', {
      encryption,
      fifo: true,
      // High-throughput FIFO: ordering and dedup per chat (the message group) is all a turn
      // needs, and the per-queue mode's 300 sends a second binds below 1M chats (docs/capacity.md).
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: Duration.seconds(TURN_VISIBILITY_SECONDS),
      deadLetterQueue: { queue: turnsDlq, maxReceiveCount: TURN_MAX_RECEIVE_COUNT },
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
    // What SNS cannot deliver to a subscribed queue (deleted, or its policy broken) lands here, not nowhere.
    const subscriptionDlq = new sqs.Queue(this, 'SubscriptionDlq', {
      encryption,
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
    });
    acceptFinding(
      subscriptionDlq,
      'AwsSolutions-SQS3',
      'it is a dead-letter queue itself (of the SNS subscriptions), alarmed when not empty',
    );
    const endOfLine = 'a dead-letter queue has none of its own: it is the end of the line, alarmed when not empty';
    for (const dlq of [turnsDlq, timersDlq, eventsDlq, subscriptionDlq])
      acceptFinding(dlq, 'Serverless-SQSRedrivePolicy', endOfLine);
    topic.addSubscription(
      new subscriptions.SqsSubscription(events, { rawMessageDelivery: true, deadLetterQueue: subscriptionDlq }),
    );
    const telemetryQueues: MonitoredQueue[] = [];
    for (const subscriber of props.telemetrySubscribers) {
      const queue = new sqs.Queue(this, `Telemetry-${subscriber.name}`, {
        encryption,
        retentionPeriod: Duration.days(4),
        enforceSSL: true,
      });
      topic.addSubscription(
        new subscriptions.SqsSubscription(queue, {
          rawMessageDelivery: true,
          deadLetterQueue: subscriptionDlq,
          ...(subscriber.eventTypes
            ? {
                filterPolicy: {
                  [EVENT_TYPE_ATTRIBUTE]: sns.SubscriptionFilter.stringFilter({ allowlist: subscriber.eventTypes }),
                },
              }
            : {}),
        }),
      );
      const externalReason =
        'read by an external telemetry consumer, whose retries are its own; unconsumed events expire after 4 days';
      acceptFinding(queue, 'AwsSolutions-SQS3', externalReason);
      acceptFinding(queue, 'Serverless-SQSRedrivePolicy', externalReason);
      new CfnOutput(this, `TelemetryQueueUrl-${subscriber.name}`, { value: queue.queueUrl });
      telemetryQueues.push({
        name: `Telemetry${subscriber.name.replace(/[^A-Za-z0-9]/g, '')}`,
        queue,
        maxAgeSeconds: OLDEST_TELEMETRY_ALARM_SECONDS,
        meaning: `the telemetry consumer ${subscriber.name} stopped reading`,
      });
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
      ...(props.settings?.transcriptRetentionDays
        ? { HOOKGATE_TRANSCRIPT_RETENTION_DAYS: String(props.settings.transcriptRetentionDays) }
        : {}),
      ...(props.settings?.sessionIdleSeconds ? { HOOKGATE_SESSION_IDLE_SECONDS: String(props.settings.sessionIdleSeconds) } : {}),
    };

    const secretEnv: Record<FunctionName, Record<string, string>> = {
      gateway: { [RESOURCE_ENV.secretArn]: secret.secretArn, [RESOURCE_ENV.replySecretArn]: replySecret.secretArn },
      turn: { [RESOURCE_ENV.replySecretArn]: replySecret.secretArn },
      // The observer runs hooks too: its http hooks sign with HOOKGATE_HTTP_HOOK_SECRET, its OTLP export sends HOOKGATE_OTLP_HEADERS.
      observer: { [RESOURCE_ENV.replySecretArn]: replySecret.secretArn },
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
        // The gateway reads both secrets; the turn function and the observer the reply secret alone (observer
        // hooks that reply, the OTLP headers), never the gateway's (the turn's tools are a chat user's, in the tools function).
        environment: { ...resourceEnv, ...secretEnv[name], ...bundleEnv },
        logGroup,
        role,
        ...extra,
        loggingFormat: lambda.LoggingFormat.JSON,
      });
      const runtimeReason =
        'the runtime is nodejs22.x by design (architecture §3); moving to a newer one is a deliberate, tested change';
      acceptFinding(fn, 'AwsSolutions-L1', runtimeReason);
      acceptFinding(fn, 'Serverless-LambdaLatestVersion', runtimeReason);
      acceptFinding(
        fn,
        'Serverless-LambdaTracing',
        "no X-Ray: each turn's hook calls are traced in the table (hookgate trace) and each hook's latency, blocks and errors are on the dashboard; X-Ray would be a second, per-trace billed record",
      );
      acceptFinding(
        fn,
        'Serverless-LambdaDLQ',
        "no event needs one: the front door and the SQS event sources invoke synchronously (failed SQS messages go to each queue's own DLQ, alarmed); the one asynchronous caller, the observer's outbox-sweep schedule, runs again a minute later, and the outbox keeps what a failed sweep did not publish",
      );
      acceptFinding(
        role,
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(payloads.node.defaultChild as s3.CfnBucket)}.Arn>/${PAYLOAD_KEY_PREFIX}*]`,
        'payload objects are keyed by date and event id, unknown at deploy time; the grant is one action under this prefix of this bucket',
      );
      if (name === 'turn')
        acceptFinding(
          role,
          `AwsSolutions-IAM5[Resource::<${this.getLogicalId(payloads.node.defaultChild as s3.CfnBucket)}.Arn>/${ATTACHMENT_KEY_PREFIX}*]`,
          'attachments are keyed by session and a random id, unknown at deploy time; the turn reads back only what it stored under this prefix',
        );
      return fn;
    };
    // The front door is public by design (platforms sign, the app verifies): reserved
    // concurrency, when asked, caps what a flood of forged requests can take from the turn and
    // observer λs; the event sources' maxConcurrency caps those two either way.
    const gateway = makeFunction(
      'gateway',
      1024,
      props.gatewayConcurrency !== undefined ? { reservedConcurrentExecutions: props.gatewayConcurrency } : {},
    );
    const turn = makeFunction('turn', 1024);
    const turnConcurrency = props.turnConcurrency ?? DEFAULT_TURN_CONCURRENCY;
    const observerConcurrency = props.observerConcurrency ?? EVENT_SOURCE_MAX_CONCURRENCY.events;
    const observer = makeFunction('observer', 512);

    const ingress = addIngress(this, gateway, props.ingress ?? { kind: 'url' });

    turn.addEventSource(
      new sources.SqsEventSource(turns, {
        batchSize: 1,
        reportBatchItemFailures: true,
        ...(turnConcurrency === 'none' ? {} : { maxConcurrency: turnConcurrency }),
      }),
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
        ...(observerConcurrency === 'none' ? {} : { maxConcurrency: observerConcurrency }),
      }),
    );

    const sqsSourceReason =
      "an SQS event source fails to its queue's redrive DLQ (alarmed, replayable with hookgate dlq); on-failure destinations are for stream sources";
    acceptFinding(turn, 'Serverless-LambdaEventSourceMappingDestination', sqsSourceReason);
    acceptFinding(observer, 'Serverless-LambdaEventSourceMappingDestination', sqsSourceReason);

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
    // The chat's tools run in the tools function; the turn function invokes it and signs the
    // presigned URLs of the session workspaces (a presigned request carries its signer's rights).
    this.tools = new ToolsFunction(this, 'Tools', {
      repoRoot: REPO_ROOT,
      network: props.toolsNetwork ?? 'none',
      dataRemovalPolicy: props.dataRemovalPolicy,
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    // Every grant beyond the table, from one declaration (resource-access.ts) the tests hold each call to.
    const queues: Record<QueueName, sqs.IQueue> = { turns, timers, events, turnsDlq, timersDlq, eventsDlq };
    const buckets: Record<BucketName, s3.IBucket> = { payloads, workspaces: this.tools.bucket };
    const secrets: Record<SecretName, secretsmanager.ISecret> = { gateway: secret, reply: replySecret };
    const grantResources = (fn: lambda.IFunction, access: ResourceAccess) => {
      for (const name of access.send) queues[name].grantSendMessages(fn);
      for (const name of access.drain)
        queues[name].grant(fn, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility');
      if (access.publishEvents) topic.grantPublish(fn);
      for (const grant of access.objects)
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: grant.actions.map((action) => `s3:${action}`),
            resources: [buckets[grant.bucket].arnForObjects(grant.keys)],
          }),
        );
      for (const name of access.list)
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [buckets[name].bucketArn] }));
      for (const name of access.secrets) secrets[name].grantRead(fn);
      if (access.invokeTools) this.tools.function.grantInvoke(fn);
    };
    for (const [name, fn] of Object.entries(functions) as [FunctionName, nodejs.NodejsFunction][])
      grantResources(fn, RESOURCE_ACCESS[name]);
    if (props.console) grantResources(gateway, CONSOLE_RESOURCE_ACCESS);
    turn.addEnvironment(RESOURCE_ENV.toolsFunctionName, this.tools.function.functionName);
    turn.addEnvironment(RESOURCE_ENV.workspaceBucket, this.tools.bucket.bucketName);
    acceptFinding(
      turn.role!,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.tools.bucket.node.defaultChild as s3.CfnBucket)}.Arn>/${WORKSPACE_KEY_PREFIX}*]`,
      'workspace archives are keyed by a hash of the session id, unknown at deploy time; the grant is get and put under this prefix of this bucket',
    );
    acceptFinding(
      turn.role!,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.tools.function.node.defaultChild as lambda.CfnFunction)}.Arn>:*]`,
      'grantInvoke covers the versions of the tools function, which is the one function granted',
    );

    if (props.console) {
      // The console's DLQ panel (its grants: CONSOLE_RESOURCE_ACCESS, above) finds the queues by these.
      const dlqPairs: [string, sqs.Queue, sqs.Queue, string][] = [
        [RESOURCE_ENV.turnsDlqUrl, turnsDlq, turns, RESOURCE_ENV.turnsQueueUrl],
        [RESOURCE_ENV.timersDlqUrl, timersDlq, timers, RESOURCE_ENV.timersQueueUrl],
        [RESOURCE_ENV.eventsDlqUrl, eventsDlq, events, RESOURCE_ENV.eventsQueueUrl],
      ];
      gateway.addEnvironment('HOOKGATE_CONSOLE', '1');
      for (const [dlqVar, dlq, source, sourceVar] of dlqPairs) {
        gateway.addEnvironment(dlqVar, dlq.queueUrl);
        gateway.addEnvironment(sourceVar, source.queueUrl);
      }
    }
    addTelemetryResources(this, { observer, ...(props.otlpEndpoint ? { otlpEndpoint: props.otlpEndpoint } : {}) });

    // Operations: one list of functions and one of queues feed the alarms and the dashboard.
    const monitoredFunctions: (MonitoredFunction & { logGroup: logs.ILogGroup })[] = (
      Object.entries(functions) as [FunctionName, nodejs.NodejsFunction][]
    ).map(([name, fn]) => ({ name, fn, timeoutSeconds: FUNCTION_TIMEOUT_SECONDS[name], logGroup: fn.logGroup }));
    // The tools function: its errors, throttles (a session past the tenant cap) and long calls page too.
    monitoredFunctions.push({
      name: 'tools',
      fn: this.tools.function,
      timeoutSeconds: FUNCTION_TIMEOUT_SECONDS.tools,
      logGroup: this.tools.function.logGroup,
    });
    const monitoredQueues: MonitoredQueue[] = [
      { name: 'Turns', queue: turns, maxAgeSeconds: OLDEST_TURN_ALARM_SECONDS, meaning: 'stuck or starved turn λ; chats wait' },
      {
        name: 'Timers',
        queue: timers,
        maxAgeSeconds: OLDEST_TIMER_ALARM_SECONDS,
        meaning: 'approval timeouts are not forwarded',
      },
      {
        name: 'Events',
        queue: events,
        maxAgeSeconds: OLDEST_EVENT_ALARM_SECONDS,
        meaning: 'observer hooks are failing or starved',
      },
      ...telemetryQueues,
    ];
    const deadLetterQueues: MonitoredDlq[] = [
      {
        name: 'TurnsDlq',
        queue: turnsDlq,
        meaning: 'turns are waiting in the turns DLQ (their chats got an apology; hookgate dlq --queue turns list)',
      },
      {
        name: 'TimersDlq',
        queue: timersDlq,
        meaning: 'approval timers are waiting in the timers DLQ (approvals may never time out; hookgate dlq --queue timers list)',
      },
      { name: 'EventsDlq', queue: eventsDlq, meaning: 'observer events are waiting in the events DLQ (hookgate dlq list)' },
      { name: 'SubscriptionDlq', queue: subscriptionDlq, meaning: 'SNS could not deliver events to a subscribed queue' },
    ];
    // A hook's stray rejection or exception is one log line in the function that runs hooks, the
    // instance going on (functions/support/stray-hook-errors.ts): counted here, so that it pages like
    // an error would have.
    const strayErrorLine = logs.FilterPattern.any(
      ...Object.values(STRAY_ERROR_EVENTS).map((event) => logs.FilterPattern.stringValue('$.event', '=', event)),
    );
    for (const [name, fn] of Object.entries(functions)) {
      new logs.MetricFilter(this, `${name[0]!.toUpperCase()}${name.slice(1)}StrayErrors`, {
        logGroup: fn.logGroup,
        filterPattern: strayErrorLine,
        metricNamespace: METRIC_NAMESPACE,
        metricName: 'StrayErrors',
        metricValue: '1',
      });
    }
    const { topic: alarmTopic } = addStackAlarms(this, {
      destination: props.alarms,
      subscriptionDlq,
      functions: monitoredFunctions,
      queues: monitoredQueues,
      deadLetterQueues,
      serverErrors: ingress.serverErrors,
      metrics: [
        {
          // A revoked bot token, an expired Teams client secret or an emptied reply secret: turns run, no reply arrives.
          id: 'UndeliveredReplies',
          description:
            'a reply the platform did not take (revoked or expired credentials, an emptied reply secret?): the turns ran, the chats heard nothing; see hookgate trace and the turn logs',
          metric: new cloudwatch.Metric({
            namespace: METRIC_NAMESPACE,
            metricName: 'UndeliveredReplies',
            dimensionsMap: { service: 'observer' },
            statistic: cloudwatch.Stats.SUM,
            period: Duration.minutes(5),
          }),
        },
        {
          id: 'StrayErrors',
          description:
            "a hook left work that failed with nobody to handle it (an unawaited promise that rejected, a timer or listener that threw): the instance went on, what the work was for did not happen; the dashboard's stray errors list them",
          metric: new cloudwatch.Metric({
            namespace: METRIC_NAMESPACE,
            metricName: 'StrayErrors',
            statistic: cloudwatch.Stats.SUM,
            period: Duration.minutes(5),
          }),
        },
      ],
    });
    addStackDashboard(this, {
      functions: monitoredFunctions,
      queues: monitoredQueues,
      ...(ingress.metrics ? { ingress: ingress.metrics } : {}),
    });

    // To recycle running instances after a secret changes (docs/deploy.md#roll-a-secret).
    for (const { name, fn } of monitoredFunctions) {
      new CfnOutput(this, `${name[0]!.toUpperCase()}${name.slice(1)}FunctionName`, { value: fn.functionName });
    }
    new CfnOutput(this, 'EventsTopicArn', { value: topic.topicArn, description: 'subscribe telemetry consumers here' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SecretArn', {
      value: secret.secretArn,
      description: 'the gateway secret: inbound verification secrets and the /v1 token',
    });
    new CfnOutput(this, 'ReplySecretArn', {
      value: replySecret.secretArn,
      description: 'the reply secret: platform reply credentials and the model key',
    });
    new CfnOutput(this, 'EventsDlqUrl', { value: eventsDlq.queueUrl });
    new CfnOutput(this, 'TurnsDlqUrl', { value: turnsDlq.queueUrl });
    new CfnOutput(this, 'EventsQueueUrl', { value: events.queueUrl });
    if (alarmTopic)
      new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn, description: 'every alarm notifies this topic' });
  }
}

import { describe, expect, it } from 'vitest';
import { findHookgateResources } from '../../src/cli/stack-resources.ts';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_SOURCE_MAX_CONCURRENCY, HookgateStack, OLDEST_TURN_ALARM_SECONDS } from '../../infra/lib/hookgate-stack.ts';
import { CONSOLE_TABLE_ACCESS, TABLE_ACCESS, type FunctionName, type TableAction } from '../../infra/lib/table-access.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import {
  FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  TURN_FAILURE_BOUND_SECONDS,
  TURN_MAX_RECEIVE_COUNT,
} from '../../src/pipeline/topology.ts';
import { parseTelemetrySubscribers } from '../../infra/lib/telemetry-subscribers.ts';
import { DEFAULT_STACK_ALARMS } from '../../bench/cost.ts';
import { DEFAULT_TRANSCRIPT_RETENTION_DAYS, DEFAULT_TURN_CONCURRENCY, readStackContext } from '../../infra/lib/stack-context.ts';
import { CDK_JSON_CONTEXT } from '../support/cdk-json-context.ts';
import { cdkOutdirs } from '../support/cdk-outdir.ts';
import { STRAY_ERROR_EVENTS } from '../../functions/support/stray-hook-errors.ts';

const cdkOutdir = cdkOutdirs();

/** Synthesises without bundling (the bundle test builds the real assets). */
function synth(props: Partial<ConstructorParameters<typeof HookgateStack>[2]> = {}): Template {
  const app = new App({ outdir: cdkOutdir(), context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  const stack = new HookgateStack(app, 'test', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [],
    alarms: { email: 'ops@example.com' },
    ...props,
  });
  return Template.fromStack(stack);
}

/** The `-c` options as `cdk` reads them; an alarm destination is required, so `alarms=none` unless given. */
const contextOf = (values: Record<string, unknown> = {}) =>
  readStackContext((key) => ({ ...(values.alarmEmail || values.alarmTopicArn ? {} : { alarms: 'none' }), ...values })[key]);

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const template = synth();
const resources = (type: string) => Object.values(template.findResources(type)) as { Properties: Record<string, any> }[];
const statementsOf = (fragment: string, from: Template = template) =>
  (Object.values(from.findResources('AWS::IAM::Policy')) as { Properties: Record<string, any> }[])
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(fragment.replace(/fn$/, 'role')))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: Record<string, any> }[]);
const actionsOf = (fragment: string, from: Template = template) => statementsOf(fragment, from).flatMap((s) => [s.Action].flat());
const lambdaNamed = (fragment: string, from: Template = template) => {
  const entry = Object.entries(from.findResources('AWS::Lambda::Function')).find(([id]) => id.includes(fragment));
  if (!entry) throw new Error(`no function ${fragment}`);
  return { id: entry[0], props: (entry[1] as { Properties: Record<string, any> }).Properties };
};

describe('HookgateStack', { timeout: 120_000 }, () => {
  it('runs three nodejs22.x functions with the topology timeouts', () => {
    for (const name of ['gateway', 'turn', 'observer'] as const) {
      const fn = lambdaNamed(`${name}fn`);
      expect(fn.props.Runtime).toBe('nodejs22.x');
      expect(fn.props.Timeout).toBe(FUNCTION_TIMEOUT_SECONDS[name]);
      expect(fn.props.Handler).toBe('index.handler');
    }
  });

  it('exposes the gateway through a Function URL without IAM auth (platforms sign requests)', () => {
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [lambdaNamed('gatewayfn').id, 'Arn'] },
    });
  });

  it('bounds a failing turn: the FIFO turns queue moves it to its DLQ within 5 minutes, so its chat is not held longer', () => {
    const fifo = resources('AWS::SQS::Queue').filter((q) => q.Properties.FifoQueue === true);
    expect(fifo).toHaveLength(2);
    const turns = fifo.find((q) => q.Properties.RedrivePolicy)!;
    const visibility = turns.Properties.VisibilityTimeout as number;
    const receives = turns.Properties.RedrivePolicy.maxReceiveCount as number;
    // Lambda refuses a visibility under the function timeout (a turn cut off by its deadline comes back once).
    expect(visibility).toBeGreaterThanOrEqual(FUNCTION_TIMEOUT_SECONDS.turn);
    // Worst case: every receive runs to the timeout and the message waits out its visibility; then SQS moves it.
    expect(receives * visibility).toBeLessThanOrEqual(TURN_FAILURE_BOUND_SECONDS - 20);
    expect(receives).toBe(TURN_MAX_RECEIVE_COUNT);
    expect(receives).toBeGreaterThanOrEqual(2); // one retry of a passing failure
    const dlq = Object.entries(template.findResources('AWS::SQS::Queue')).find(([id]) => id.startsWith('TurnsDlq'))![0];
    expect(turns.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [dlq, 'Arn'] });
    // The turns event source reads one message at a time, so one failing chat holds no other.
    const turnsId = Object.keys(template.findResources('AWS::SQS::Queue')).find(
      (id) => id.startsWith('Turns') && !id.startsWith('TurnsDlq'),
    )!;
    const mapping = resources('AWS::Lambda::EventSourceMapping').find((m) =>
      JSON.stringify(m.Properties.EventSourceArn).includes(turnsId),
    );
    expect(mapping?.Properties.BatchSize).toBe(1);
    // High-throughput mode (docs/capacity.md): dedup and the throughput quota per chat's group.
    expect(turns.Properties).toMatchObject({ DeduplicationScope: 'messageGroup', FifoThroughputLimit: 'perMessageGroupId' });
  });

  it('gives every other consumed queue a DLQ and visibility ≥ 6 × its consumer timeout', () => {
    const withRedrive = resources('AWS::SQS::Queue').filter((q) => q.Properties.RedrivePolicy && q.Properties.FifoQueue !== true);
    expect(withRedrive).toHaveLength(2); // timers, events
    for (const q of withRedrive) {
      expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
      expect(q.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * FUNCTION_TIMEOUT_SECONDS.observer);
    }
  });

  it('maps the turn λ to the turns queue with batch size 1 and the observer λ with batching, both with partial failures', () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping').map((m) => m.Properties);
    const turn = mappings.filter((m) => m.FunctionName.Ref === lambdaNamed('turnfn').id);
    const observer = mappings.filter((m) => m.FunctionName.Ref === lambdaNamed('observerfn').id);
    expect(turn.map((m) => m.BatchSize).sort()).toEqual([1, 10]); // turns FIFO, timers
    expect(observer).toHaveLength(1);
    expect(observer[0]?.BatchSize).toBeLessThanOrEqual(10);
    expect(observer[0]?.MaximumBatchingWindowInSeconds).toBeGreaterThan(0);
    for (const m of [...turn, ...observer]) expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('keeps state in one on-demand table with TTL, point-in-time recovery and deletion protection', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('chooses the data removal policy from the context flag; a table that goes with the stack has no deletion protection to stop it', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
    synth({ dataRemovalPolicy: RemovalPolicy.DESTROY }).hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
    expect(contextOf().dataRemovalPolicy).toBe(RemovalPolicy.RETAIN);
    expect(contextOf({ removalPolicy: 'destroy' }).dataRemovalPolicy).toBe(RemovalPolicy.DESTROY);
    expect(() => contextOf({ removalPolicy: 'delete-everything' })).toThrow(/removalPolicy/);
  });

  it('fans the events topic out to the observer queue with raw delivery, and exports its ARN', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'sqs', RawMessageDelivery: true });
    expect(Object.keys(template.findOutputs('EventsTopicArn'))).toHaveLength(1);
  });

  it('gives every SNS subscription a redrive policy to the subscription DLQ, which SNS may send to and which alarms', () => {
    const t = synth({ telemetrySubscribers: parseTelemetrySubscribers('[{"name":"audit"}]') });
    const dlq = Object.keys(t.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('SubscriptionDlq'))!;
    const subs = (Object.values(t.findResources('AWS::SNS::Subscription')) as { Properties: Record<string, any> }[]).filter(
      (x) => x.Properties.Protocol === 'sqs',
    );
    expect(subs).toHaveLength(2);
    for (const sub of subs) expect(sub.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] } });
    const policy = (Object.values(t.findResources('AWS::SQS::QueuePolicy')) as { Properties: Record<string, any> }[]).find((p) =>
      JSON.stringify(p.Properties.Queues).includes(dlq),
    );
    expect(JSON.stringify(policy?.Properties.PolicyDocument)).toContain('sns.amazonaws.com');
    const alarms = (Object.values(t.findResources('AWS::CloudWatch::Alarm')) as { Properties: Record<string, any> }[]).map(
      (a) => a.Properties,
    );
    expect(
      alarms.some((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions[0].Value['Fn::GetAtt'][0] === dlq),
    ).toBe(true);
  });

  it('adds telemetry subscriber queues with a filter policy on event_type from the context', () => {
    const subscribers = parseTelemetrySubscribers('[{"name":"audit","eventTypes":["post_tool_call"]},{"name":"all"}]');
    const t = synth({ telemetrySubscribers: subscribers });
    const subs = (Object.values(t.findResources('AWS::SNS::Subscription')) as { Properties: Record<string, any> }[])
      .map((s) => s.Properties)
      .filter((s) => s.Protocol === 'sqs');
    expect(subs).toHaveLength(3);
    expect(subs.filter((s) => s.FilterPolicy)).toEqual([
      expect.objectContaining({ FilterPolicy: { event_type: ['post_tool_call'] }, RawMessageDelivery: true }),
    ]);
    expect(Object.keys(t.findOutputs('*')).filter((k) => k.startsWith('TelemetryQueueUrl'))).toHaveLength(2);
    expect(() => parseTelemetrySubscribers('[{"name":"bad name"}]')).toThrow(/telemetrySubscribers\[0\.name\]/);
  });

  it('keeps platform secrets, the model key and a generated /v1 token in Secrets Manager, in the gateway secret and the reply secret', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'HOOKGATE_API_TOKEN' }),
    });
    const secrets = resources('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(2);
    const keysOf = (s: { Properties: Record<string, any> }) =>
      Object.keys(JSON.parse(s.Properties.GenerateSecretString?.SecretStringTemplate ?? s.Properties.SecretString));
    const gateway = secrets.find((s) => s.Properties.GenerateSecretString)!;
    const reply = secrets.find((s) => !s.Properties.GenerateSecretString)!;
    expect(keysOf(gateway)).toEqual(
      expect.arrayContaining(['TELEGRAM_SECRET_TOKEN', 'SLACK_SIGNING_SECRET', 'WHATSAPP_APP_SECRET']),
    );
    expect(keysOf(reply)).toEqual(expect.arrayContaining(['TELEGRAM_BOT_TOKEN', 'SLACK_BOT_TOKEN', 'HOOKGATE_MODEL_API_KEY']));
    expect(keysOf(reply)).not.toContain('SLACK_SIGNING_SECRET');
  });

  it('keeps the logical ids of what holds data: a moved construct would make a new, empty table (or bucket) and orphan the old one', () => {
    const ids = (type: string) => Object.keys(template.findResources(type)).sort();
    expect(ids('AWS::DynamoDB::GlobalTable')).toEqual(['TableCD117FA1']);
    expect(ids('AWS::S3::Bucket')).toEqual(expect.arrayContaining(['PayloadsCDFAA0A2', 'ToolsWorkspacesED2138E8']));
    expect(ids('AWS::SecretsManager::Secret')).toEqual(['ReplySecrets57F765F4', 'SecretsA3BCC2E9']);
  });

  it('holds every resource the CLI looks up by construct id (hookgate dlq / allowlist --stack)', () => {
    const all = Object.entries(template.toJSON().Resources as Record<string, { Type: string }>).map(([id, r]) => ({
      LogicalResourceId: id,
      ResourceType: r.Type,
      PhysicalResourceId: `physical-${id}`,
      ResourceStatus: 'CREATE_COMPLETE' as const,
      Timestamp: new Date(0),
    }));
    const found = findHookgateResources(all);
    expect(Object.keys(found).sort()).toEqual(
      ['eventsDlqUrl', 'eventsQueueUrl', 'tableName', 'timersDlqUrl', 'timersQueueUrl', 'turnsDlqUrl', 'turnsQueueUrl'].sort(),
    );
    expect(found.timersQueueUrl).toMatch(/^physical-Timers[0-9A-F]{8}$/);
    expect(found.timersDlqUrl).toMatch(/^physical-TimersDlq[0-9A-F]{8}$/);
  });

  it("never changes the secrets' initial values: on deploy a changed one would blank the values the operator put in", () => {
    const secrets = resources('AWS::SecretsManager::Secret');
    const gateway = secrets.find((s) => s.Properties.GenerateSecretString)!;
    const reply = secrets.find((s) => !s.Properties.GenerateSecretString)!;
    // Literal on purpose: a release that adds a key leaves these as they are (infra/lib/secret-keys.ts).
    expect(gateway.Properties.GenerateSecretString).toEqual({
      SecretStringTemplate:
        '{"TELEGRAM_SECRET_TOKEN":"","SLACK_SIGNING_SECRET":"","DISCORD_PUBLIC_KEY":"","WHATSAPP_APP_SECRET":"","WHATSAPP_VERIFY_TOKEN":""}',
      GenerateStringKey: 'HOOKGATE_API_TOKEN',
      ExcludePunctuation: true,
      PasswordLength: 48,
    });
    expect(reply.Properties.SecretString).toBe(
      '{"TELEGRAM_BOT_TOKEN":"","SLACK_BOT_TOKEN":"","DISCORD_APPLICATION_ID":"","DISCORD_BOT_TOKEN":"","WHATSAPP_ACCESS_TOKEN":"","WHATSAPP_PHONE_NUMBER_ID":"","TEAMS_APP_ID":"","TEAMS_APP_PASSWORD":"","HOOKGATE_MODEL_API_KEY":"","HOOKGATE_HTTP_HOOK_SECRET":"","HOOKGATE_OTLP_HEADERS":""}',
    );
  });

  it("alarms on every DLQ, every queue's oldest message, the Function URL's 5xx, undelivered replies, stray hook errors, and errors, throttles and long durations of every function, each notifying the alarm topic", () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map((a) => a.Properties);
    // The count docs/cost.md prices (an idle month).
    expect(alarms).toHaveLength(DEFAULT_STACK_ALARMS);
    const queueIds = Object.keys(template.findResources('AWS::SQS::Queue'));
    const queueOf = (a: Record<string, any>) => a.Dimensions[0].Value['Fn::GetAtt'][0] as string;
    const dlqs = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlqs.map(queueOf).sort()).toEqual(
      ['EventsDlq', 'SubscriptionDlq', 'TimersDlq', 'TurnsDlq'].map((id) => queueIds.find((q) => q.startsWith(id))).sort(),
    );
    // Every queue a consumer reads: its oldest message.
    const oldest = alarms.filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(oldest.map(queueOf).sort()).toEqual(
      ['Events', 'Timers', 'Turns'].map((id) => queueIds.find((q) => q.startsWith(id) && !q.includes('Dlq'))).sort(),
    );
    expect(oldest.find((a) => queueOf(a).startsWith('Turns'))!.Threshold).toBe(OLDEST_TURN_ALARM_SECONDS);
    // Four functions: gateway, turn, observer and the tools function.
    for (const metric of ['Errors', 'Throttles']) expect(alarms.filter((a) => a.MetricName === metric)).toHaveLength(4);
    // Duration over 80 % of each function's timeout, on the slowest invocation of the minute.
    const durations = alarms.filter((a) => a.MetricName === 'Duration');
    expect(durations).toHaveLength(4);
    for (const name of ['gateway', 'turn', 'observer'] as const) {
      const alarm = durations.find((a) => a.Dimensions[0].Value.Ref === lambdaNamed(`${name}fn`).id)!;
      expect(alarm.Threshold).toBe(Math.round(0.8 * FUNCTION_TIMEOUT_SECONDS[name] * 1000));
      expect(alarm.Statistic).toBe('Maximum');
    }
    const url5xx = alarms.filter((a) => a.MetricName === 'Url5xxCount');
    expect(url5xx).toHaveLength(1);
    expect(url5xx[0]!.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: lambdaNamed('gatewayfn').id } }]);
    const alarmTopic = Object.keys(template.findResources('AWS::SNS::Topic')).find((id) => id.startsWith('AlarmTopic'));
    expect(alarmTopic).toBeDefined();
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: alarmTopic }]);
    // A reply the platform did not take (the observer's EMF metric): the turn ran, the chat heard nothing.
    expect(alarms.filter((a) => a.MetricName === 'UndeliveredReplies')).toEqual([
      expect.objectContaining({
        Namespace: 'hookgate',
        Dimensions: [{ Name: 'service', Value: 'observer' }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 0,
      }),
    ]);
    // A hook's stray rejection or exception: one log line in a function that runs hooks, counted by a metric filter on each of their logs.
    expect(alarms.filter((a) => a.MetricName === 'StrayErrors')).toEqual([
      expect.objectContaining({ Namespace: 'hookgate', Statistic: 'Sum', Period: 300, Threshold: 0 }),
    ]);
    const filters = resources('AWS::Logs::MetricFilter').map((f) => f.Properties);
    for (const name of ['gateway', 'turn', 'observer']) {
      const filter = filters.find((f) => JSON.stringify(f.LogGroupName).includes(`${name}logs`));
      expect(filter, name).toMatchObject({
        FilterPattern: `{ ($.event = "${STRAY_ERROR_EVENTS.rejection}") || ($.event = "${STRAY_ERROR_EVENTS.exception}") }`,
        MetricTransformations: [{ MetricNamespace: 'hookgate', MetricName: 'StrayErrors', MetricValue: '1' }],
      });
    }
    expect(alarms.length).toBe(4 + 3 + 4 * 3 + 1 + 1 + 1); // DLQs, oldest messages, 3 per function (gateway, turn, observer, tools), the URL's 5xx, undelivered replies, stray hook errors
    // A telemetry queue's age alarms too (its consumer stopped reading).
    const withTelemetry = synth({ telemetrySubscribers: parseTelemetrySubscribers('[{"name":"audit"}]') });
    const ages = (
      Object.values(withTelemetry.findResources('AWS::CloudWatch::Alarm')) as { Properties: Record<string, any> }[]
    ).filter((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(ages.map((a) => queueOf(a.Properties)).some((id) => id.startsWith('Telemetryaudit'))).toBe(true);
  });

  it('refuses to synthesise without an alarm destination; -c alarmEmail, -c alarmTopicArn or an explicit -c alarms=none', () => {
    expect(() => readStackContext(() => undefined)).toThrow(
      /no alarm destination: pass -c alarmEmail=ADDRESS or -c alarmTopicArn=ARN, or -c alarms=none/,
    );
    expect(() => readStackContext((k) => ({ alarmEmail: 'ops@example.com', alarms: 'none' })[k as 'alarms'])).toThrow(
      /give one of them/,
    );
    expect(contextOf({ alarmEmail: 'ops@example.com' }).alarms).toEqual({ email: 'ops@example.com' });
    expect(() => contextOf({ alarmEmail: 'not-an-address' })).toThrow(/alarmEmail/);
    const arn = 'arn:aws:sns:eu-west-1:123456789012:pager';
    expect(contextOf({ alarmTopicArn: arn }).alarms).toEqual({ topicArn: arn });
    expect(() => contextOf({ alarmTopicArn: 'pager' })).toThrow(/alarmTopicArn/);
    expect(() => readStackContext((k) => (k === 'alarms' ? 'some' : undefined))).toThrow(/alarms/);

    // An email: the stack's own topic, that address subscribed.
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    // The operator's topic: no topic of our own, every alarm notifies theirs.
    const theirs = synth({ alarms: { topicArn: arn } });
    expect(Object.keys(theirs.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('AlarmTopic'))).toEqual([]);
    const theirAlarms = Object.values(theirs.findResources('AWS::CloudWatch::Alarm')) as { Properties: Record<string, any> }[];
    expect(theirAlarms.length).toBeGreaterThan(0);
    for (const alarm of theirAlarms) expect(alarm.Properties.AlarmActions).toEqual([arn]);
    // None, said out loud: no alarm, no topic (the dashboard stays).
    const none = synth({ alarms: 'none' });
    none.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    none.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(Object.keys(none.findResources('AWS::SNS::Topic')).filter((id) => id.startsWith('AlarmTopic'))).toEqual([]);
  });

  it('draws one dashboard with the golden signals of every function and queue, and per hook from the hook-run and stray-error log lines', () => {
    const dashboards = resources('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const name of ['gateway', 'turn', 'observer']) {
      expect(body).toContain(`${name}: duration p50 / p95 (ms)`);
      expect(body).toContain(`${name}: invocations, errors, throttles`);
    }
    for (const stat of ['p50', 'p95', 'ConcurrentExecutions', 'ApproximateAgeOfOldestMessage']) expect(body).toContain(stat);
    // Per hook: Logs Insights over the functions' log groups, on the line functions/support/hook-run-log.ts writes.
    expect(body).toMatch(/filter message = \W+hook run\W/);
    expect(body).toContain('pct(duration_ms, 95) as p95_ms');
    expect(body).toMatch(/as blocks.*as errors by hook/);
    // And the lines a hook's stray rejection or exception writes (functions/support/stray-hook-errors.ts), latest first.
    expect(body).toMatch(/filter event in \W+stray_rejection\W+stray_exception\W/);
    expect(body).toContain('fields @timestamp, service, event, hook, reason');
    const logGroups = Object.keys(template.findResources('AWS::Logs::LogGroup'));
    for (const id of logGroups) expect(body).toContain(id);
  });

  it('limits the blast radius: gateway reserved concurrency, event-source max concurrency, encrypted topic and queues over TLS only', () => {
    // Reserved only when asked: reserving needs N + 100 of the account's quota, which new accounts lack.
    expect(lambdaNamed('gatewayfn').props.ReservedConcurrentExecutions).toBeUndefined();
    expect(contextOf().gatewayConcurrency).toBeUndefined();
    expect(contextOf({ gatewayConcurrency: '20' }).gatewayConcurrency).toBe(20);
    expect(() => contextOf({ gatewayConcurrency: '0' })).toThrow(/gatewayConcurrency/);
    expect(lambdaNamed('gatewayfn', synth({ gatewayConcurrency: 7 })).props.ReservedConcurrentExecutions).toBe(7);
    const mappings = (t = template) =>
      Object.values(t.findResources('AWS::Lambda::EventSourceMapping')).map(
        (m) => (m as { Properties: Record<string, any> }).Properties.ScalingConfig?.MaximumConcurrency,
      );
    expect(mappings().sort((a, b) => a - b)).toEqual(
      [...Object.values(EVENT_SOURCE_MAX_CONCURRENCY), DEFAULT_TURN_CONCURRENCY].sort((a, b) => a - b),
    );
    // The turns source binds the deployment's turn rate (docs/capacity.md): the operator sets it, or lifts it.
    expect(contextOf().turnConcurrency).toBe(DEFAULT_TURN_CONCURRENCY);
    expect(contextOf({ turnConcurrency: '1000' }).turnConcurrency).toBe(1000);
    expect(contextOf({ turnConcurrency: 'none' }).turnConcurrency).toBe('none');
    expect(() => contextOf({ turnConcurrency: '1' })).toThrow(/turnConcurrency/);
    expect(() => contextOf({ turnConcurrency: '1001' })).toThrow(/turnConcurrency/);
    expect(mappings(synth({ turnConcurrency: 750 }))).toContain(750);
    // Transcripts expire 90 days after their session's last message unless the operator says otherwise.
    expect(contextOf().settings.transcriptRetentionDays).toBe(DEFAULT_TRANSCRIPT_RETENTION_DAYS);
    expect(contextOf({ transcriptRetentionDays: '365' }).settings.transcriptRetentionDays).toBe(365);
    expect(contextOf({ transcriptRetentionDays: 'none' }).settings.transcriptRetentionDays).toBeUndefined();
    expect(() => contextOf({ transcriptRetentionDays: '0' })).toThrow(/transcriptRetentionDays/);
    const retention = synth({ settings: { transcriptRetentionDays: 30 } });
    expect(lambdaNamed('turnfn', retention).props.Environment.Variables.HOOKGATE_TRANSCRIPT_RETENTION_DAYS).toBe('30');
    expect(lambdaNamed('turnfn').props.Environment.Variables.HOOKGATE_TRANSCRIPT_RETENTION_DAYS).toBeUndefined();
    // Sessions rotate after an idle time only when the operator says so.
    expect(contextOf().settings.sessionIdleSeconds).toBeUndefined();
    expect(contextOf({ sessionIdleSeconds: '86400' }).settings.sessionIdleSeconds).toBe(86_400);
    expect(() => contextOf({ sessionIdleSeconds: '30' })).toThrow(/sessionIdleSeconds/);
    const idle = synth({ settings: { sessionIdleSeconds: 3600 } });
    expect(lambdaNamed('turnfn', idle).props.Environment.Variables.HOOKGATE_SESSION_IDLE_SECONDS).toBe('3600');
    expect(mappings(synth({ turnConcurrency: 'none' })).filter((m) => m === undefined)).toHaveLength(1);
    // The observers' cap too: with slow observer hooks it bounds the events a second (docs/capacity.md).
    expect(contextOf().observerConcurrency).toBe(EVENT_SOURCE_MAX_CONCURRENCY.events);
    expect(contextOf({ observerConcurrency: '100' }).observerConcurrency).toBe(100);
    expect(contextOf({ observerConcurrency: 'none' }).observerConcurrency).toBe('none');
    expect(() => contextOf({ observerConcurrency: '1' })).toThrow(/observerConcurrency/);
    expect(mappings(synth({ observerConcurrency: 300 }))).toContain(300);
    expect(mappings(synth({ observerConcurrency: 'none' })).filter((m) => m === undefined)).toHaveLength(1);
    const topics = template.findResources('AWS::SNS::Topic');
    const eventsTopic = Object.entries(topics).find(([id]) => id.startsWith('EventsTopic'))![1] as {
      Properties: Record<string, any>;
    };
    expect(JSON.stringify(eventsTopic.Properties.KmsMasterKeyId)).toContain('alias/aws/sns');
    const topicPolicies = resources('AWS::SNS::TopicPolicy');
    expect(topicPolicies).toHaveLength(2); // events and alarm topics both refuse plain HTTP
    for (const policy of topicPolicies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
    for (const queue of resources('AWS::SQS::Queue')) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(resources('AWS::SQS::QueuePolicy').length).toBeGreaterThan(0);
  });

  it('sets a log retention on every function log group', () => {
    const groups = resources('AWS::Logs::LogGroup');
    expect(groups).toHaveLength(4); // gateway, turn, observer, tools
    for (const g of groups) expect(g.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('grants least privilege: no wildcard actions, and each function only what it uses', () => {
    const policies = resources('AWS::IAM::Policy');
    for (const p of policies) {
      for (const statement of p.Properties.PolicyDocument.Statement) {
        for (const action of [statement.Action].flat()) expect(action).not.toMatch(/\*/);
      }
    }
    expect(actionsOf('observerfn')).not.toContain('sqs:SendMessage');
    // The observer reads the reply secret (http hook key, OTLP headers), never the gateway's inbound secrets.
    expect(lambdaNamed('observerfn').props.Environment.Variables).not.toHaveProperty('HOOKGATE_SECRET_ARN');
    expect(lambdaNamed('observerfn').props.Environment.Variables).toHaveProperty('HOOKGATE_REPLY_SECRET_ARN');
    expect(actionsOf('observerfn')).toContain('sqs:ReceiveMessage');
    expect(actionsOf('gatewayfn')).toContain('sqs:SendMessage');
    expect(actionsOf('gatewayfn')).toContain('sns:Publish');
    expect(actionsOf('gatewayfn')).not.toContain('sqs:ReceiveMessage');
    expect(actionsOf('turnfn')).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:SendMessage', 'dynamodb:PutItem']));
    // No AWS-managed policy on any function role: logs are granted on the function's own log group.
    for (const role of resources('AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('serves the console only with -c console=true: its env and grants appear only then', () => {
    const CONSOLE_ENV = [
      'HOOKGATE_CONSOLE',
      RESOURCE_ENV.turnsDlqUrl,
      RESOURCE_ENV.timersDlqUrl,
      RESOURCE_ENV.eventsDlqUrl,
      RESOURCE_ENV.eventsQueueUrl,
    ];
    const CONSOLE_SQS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'];
    const consoleKeys = (from: Template) =>
      statementsOf('gatewayfn', from)
        .filter(
          (st) =>
            JSON.stringify(st.Condition ?? {}).includes('UNDELIVERED_REPLY') ||
            JSON.stringify(st.Condition ?? {}).includes('TRACE_RECENT'),
        )
        .flatMap((st) => [st.Action].flat());

    // Off (the default): none of it.
    expect(contextOf().console).toBe(false);
    const offEnv = lambdaNamed('gatewayfn').props.Environment.Variables;
    for (const name of CONSOLE_ENV) expect(offEnv, name).not.toHaveProperty(name);
    for (const action of CONSOLE_SQS) expect(actionsOf('gatewayfn'), action).not.toContain(action);
    expect(consoleKeys(template)).toEqual([]);

    // On: the flag, the DLQ and source queue URLs, and grants on exactly those queues.
    expect(contextOf({ console: 'true' }).console).toBe(true);
    expect(() => contextOf({ console: 'yes' })).toThrow(/console/);
    const on = synth({ console: true });
    const env = lambdaNamed('gatewayfn', on).props.Environment.Variables;
    expect(env.HOOKGATE_CONSOLE).toBe('1');
    for (const name of CONSOLE_ENV) expect(env, name).toHaveProperty(name);
    // Only the gateway: the turn and observer functions are unchanged.
    for (const fn of ['turnfn', 'observerfn'])
      expect(lambdaNamed(fn, on).props.Environment.Variables).not.toHaveProperty('HOOKGATE_CONSOLE');
    const queueIds = Object.keys(on.findResources('AWS::SQS::Queue'));
    const dlqIds = ['TurnsDlq', 'TimersDlq', 'EventsDlq'].map((id) => queueIds.find((q) => q.startsWith(id))!);
    const receive = statementsOf('gatewayfn', on).filter((st) => [st.Action].flat().includes('sqs:ReceiveMessage'));
    // cdk.json's minimizePolicies may merge them into one statement: what counts is actions and resources.
    for (const st of receive) expect([st.Action].flat().sort()).toEqual([...CONSOLE_SQS].sort());
    // The DLQs by ARN: never a wildcard, never a source queue.
    const receiveResources = receive
      .flatMap((st) => [(st as { Resource?: unknown }).Resource].flat())
      .map((r) => JSON.stringify(r));
    expect(receiveResources.sort()).toEqual(dlqIds.map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).sort());
    const send = statementsOf('gatewayfn', on).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
    const sendTargets = send.flatMap((st) => [(st as { Resource?: unknown }).Resource].flat()).map((r) => JSON.stringify(r));
    for (const source of ['Timers', 'Events']) {
      const id = queueIds.find((q) => q.startsWith(source) && !q.startsWith(`${source}Dlq`))!;
      expect(sendTargets).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }));
    }
    for (const id of dlqIds) expect(sendTargets).not.toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }));
    // The console's table grants, on its index keys only.
    const declared = CONSOLE_TABLE_ACCESS.flatMap((g) => g.actions.map((a) => `dynamodb:${a}`)).sort();
    expect(consoleKeys(on).sort()).toEqual(declared);
    for (const grant of CONSOLE_TABLE_ACCESS) {
      const source = grant.calledFrom.map((file) => readFileSync(join(REPO, file), 'utf8')).join('\n');
      const calls: Partial<Record<TableAction, RegExp>> = {
        Query: /new QueryCommand\b/,
        GetItem: /new GetCommand\b/,
        UpdateItem: /new UpdateCommand\b/,
      };
      for (const action of grant.actions) expect(source, `console: dynamodb:${action}`).toMatch(calls[action]!);
      for (const prefix of grant.leadingKeys) expect(source, `console: ${prefix}`).toContain(prefix.replace(/\*$/, ''));
    }
  });

  it('grants each function exactly the table actions its code calls, each on the key prefixes it uses', () => {
    /** How each action appears in code: the document client's command, the raw client's, or a helper. */
    const CALLS: Record<TableAction, RegExp> = {
      GetItem: /new (GetCommand|GetItemCommand)\b/,
      PutItem: /new (PutCommand|PutItemCommand)\b|\.putItem\(/,
      UpdateItem: /new (UpdateCommand|UpdateItemCommand)\b/,
      DeleteItem: /new (DeleteCommand|DeleteItemCommand)\b/,
      Query: /new QueryCommand\b|queryPartition\(/,
      BatchGetItem: /new (BatchGetCommand|BatchGetItemCommand)\b/,
      BatchWriteItem: /new (BatchWriteCommand|BatchWriteItemCommand)\b|\.batchWriteItem\(/,
    };
    for (const name of ['gateway', 'turn', 'observer'] as FunctionName[]) {
      const statements = statementsOf(`${name}fn`).filter((s) =>
        [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')),
      );
      const granted = new Set(statements.flatMap((s) => [s.Action].flat()));
      const declared = new Set(TABLE_ACCESS[name].flatMap((g) => g.actions.map((a) => `dynamodb:${a}`)));
      // The role says what the declaration says: nothing from grantReadWriteData (Scan, streams, ConditionCheckItem…).
      expect([...granted].sort(), name).toEqual([...declared].sort());
      for (const statement of statements) {
        expect(
          statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
          `${name}: ${statement.Action}`,
        ).toBeDefined();
      }
      for (const grant of TABLE_ACCESS[name]) {
        const source = grant.calledFrom.map((file) => readFileSync(join(REPO, file), 'utf8')).join('\n');
        // Every granted action is called by the code the grant names; an unused one fails here.
        for (const action of grant.actions)
          expect(source, `${name}: dynamodb:${action} is not called in ${grant.calledFrom.join(', ')}`).toMatch(CALLS[action]);
        // And the prefix it is limited to is one that code writes.
        for (const prefix of grant.leadingKeys) expect(source, `${name}: ${prefix}`).toContain(prefix.replace(/\*$/, ''));
        const statement = statements.find((s) => JSON.stringify(s.Condition).includes(JSON.stringify(grant.leadingKeys)));
        expect(statement, `${name}: ${grant.leadingKeys}`).toBeDefined();
      }
    }
    // What each function's own code writes beyond the declarations checked above: the observer
    // records the trace of the hooks it runs (src/agent/trace/observer-trace.ts).
    const observerTrace = statementsOf('observerfn').find((s) => JSON.stringify(s.Condition ?? {}).includes('"TRACE#*"'));
    expect([observerTrace?.Action].flat()).toContain('dynamodb:BatchWriteItem');
    console.log(
      'table actions per role:',
      Object.fromEntries(
        (['gateway', 'turn', 'observer'] as const).map((n) => [
          n,
          [...new Set(actionsOf(`${n}fn`).filter((a) => a.startsWith('dynamodb:')))].sort(),
        ]),
      ),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_SOURCE_MAX_CONCURRENCY, HookgateStack, OLDEST_TURN_ALARM_SECONDS } from '../../infra/lib/hookgate-stack.ts';
import { CONSOLE_TABLE_ACCESS, TABLE_ACCESS, type FunctionName, type TableAction } from '../../infra/lib/table-access.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { FUNCTION_TIMEOUT_SECONDS, MAX_RECEIVE_COUNT } from '../../src/pipeline/topology.ts';
import { parseTelemetrySubscribers } from '../../infra/lib/telemetry-subscribers.ts';
import { readStackContext } from '../../infra/lib/stack-context.ts';

/** Synthesises without bundling (the bundle test builds the real assets). */
function synth(props: Partial<ConstructorParameters<typeof HookgateStack>[2]> = {}): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new HookgateStack(app, 'test', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [],
    ...props,
  });
  return Template.fromStack(stack);
}

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

describe('HookgateStack', () => {
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

  it('has FIFO turns with a FIFO DLQ and visibility ≥ 6 × the turn timeout', () => {
    const fifo = resources('AWS::SQS::Queue').filter((q) => q.Properties.FifoQueue === true);
    expect(fifo).toHaveLength(2);
    const turns = fifo.find((q) => q.Properties.RedrivePolicy);
    expect(turns?.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * FUNCTION_TIMEOUT_SECONDS.turn);
    expect(turns?.Properties.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    // High-throughput mode (docs/capacity.md): dedup and the throughput quota per chat's group.
    expect(turns?.Properties).toMatchObject({ DeduplicationScope: 'messageGroup', FifoThroughputLimit: 'perMessageGroupId' });
  });

  it('gives every consumed queue a DLQ and visibility ≥ 6 × its consumer timeout', () => {
    const withRedrive = resources('AWS::SQS::Queue').filter((q) => q.Properties.RedrivePolicy);
    expect(withRedrive).toHaveLength(3); // turns, timers, events
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

  it('keeps state in one on-demand table with TTL and point-in-time recovery', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('chooses the data removal policy from the context flag', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
    synth({ dataRemovalPolicy: RemovalPolicy.DESTROY }).hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
    expect(readStackContext(() => undefined).dataRemovalPolicy).toBe(RemovalPolicy.RETAIN);
    expect(readStackContext((k) => (k === 'removalPolicy' ? 'destroy' : undefined)).dataRemovalPolicy).toBe(RemovalPolicy.DESTROY);
    expect(() => readStackContext((k) => (k === 'removalPolicy' ? 'delete-everything' : undefined))).toThrow(/removalPolicy/);
  });

  it('fans the events topic out to the observer queue with raw delivery, and exports its ARN', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'sqs', RawMessageDelivery: true });
    expect(Object.keys(template.findOutputs('EventsTopicArn'))).toHaveLength(1);
  });

  it('adds telemetry subscriber queues with a filter policy on event_type from the context', () => {
    const subscribers = parseTelemetrySubscribers('[{"name":"audit","eventTypes":["post_tool_call"]},{"name":"all"}]');
    const t = synth({ telemetrySubscribers: subscribers });
    const subs = (Object.values(t.findResources('AWS::SNS::Subscription')) as { Properties: Record<string, any> }[]).map(
      (s) => s.Properties,
    );
    expect(subs).toHaveLength(3);
    expect(subs.filter((s) => s.FilterPolicy)).toEqual([
      expect.objectContaining({ FilterPolicy: { event_type: ['post_tool_call'] }, RawMessageDelivery: true }),
    ]);
    expect(Object.keys(t.findOutputs('*')).filter((k) => k.startsWith('TelemetryQueueUrl'))).toHaveLength(2);
    expect(() => parseTelemetrySubscribers('[{"name":"bad name"}]')).toThrow(/telemetrySubscribers\[0\.name\]/);
  });

  it('keeps platform secrets, the model key and a generated /v1 token in Secrets Manager', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'HOOKGATE_API_TOKEN' }),
    });
    const template_ = JSON.parse(
      resources('AWS::SecretsManager::Secret')[0]!.Properties.GenerateSecretString.SecretStringTemplate,
    );
    expect(Object.keys(template_)).toEqual(expect.arrayContaining(['TELEGRAM_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'HOOKGATE_MODEL_API_KEY']));
  });

  it('alarms on every DLQ (timers included), the oldest turn, and errors and throttles of every function, each notifying the alarm topic', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map((a) => a.Properties);
    const dlqs = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    const queueIds = Object.keys(template.findResources('AWS::SQS::Queue'));
    expect(dlqs.map((a) => a.Dimensions[0].Value['Fn::GetAtt'][0]).sort()).toEqual(
      ['EventsDlq', 'TimersDlq', 'TurnsDlq'].map((id) => queueIds.find((q) => q.startsWith(id))).sort(),
    );
    expect(alarms.filter((a) => a.MetricName === 'Errors')).toHaveLength(3);
    expect(alarms.filter((a) => a.MetricName === 'Throttles')).toHaveLength(3);
    const oldest = alarms.filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(oldest).toHaveLength(1);
    expect(oldest[0]!.Threshold).toBe(OLDEST_TURN_ALARM_SECONDS);
    expect(oldest[0]!.Dimensions[0].Value['Fn::GetAtt'][0]).toMatch(/^Turns(?!Dlq)/);
    const alarmTopic = Object.keys(template.findResources('AWS::SNS::Topic')).find((id) => id.startsWith('AlarmTopic'));
    expect(alarmTopic).toBeDefined();
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: alarmTopic }]);
    expect(alarms.length).toBe(3 + 3 + 3 + 1);
  });

  it('subscribes -c alarmEmail to the alarm topic, and nobody without it', () => {
    template.resourcePropertiesCountIs('AWS::SNS::Subscription', { Protocol: 'email' }, 0);
    const withEmail = synth({ alarmEmail: 'ops@example.com' });
    withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(readStackContext((k) => (k === 'alarmEmail' ? 'ops@example.com' : undefined)).alarmEmail).toBe('ops@example.com');
    expect(() => readStackContext((k) => (k === 'alarmEmail' ? 'not-an-address' : undefined))).toThrow(/alarmEmail/);
  });

  it('limits the blast radius: gateway reserved concurrency, event-source max concurrency, encrypted topic and queues over TLS only', () => {
    expect(lambdaNamed('gatewayfn').props.ReservedConcurrentExecutions).toBe(50);
    expect(readStackContext(() => undefined).gatewayConcurrency).toBe(50);
    expect(readStackContext((k) => (k === 'gatewayConcurrency' ? '20' : undefined)).gatewayConcurrency).toBe(20);
    expect(() => readStackContext((k) => (k === 'gatewayConcurrency' ? '0' : undefined))).toThrow(/gatewayConcurrency/);
    expect(lambdaNamed('gatewayfn', synth({ gatewayConcurrency: 7 })).props.ReservedConcurrentExecutions).toBe(7);
    const mappings = resources('AWS::Lambda::EventSourceMapping').map((m) => m.Properties.ScalingConfig?.MaximumConcurrency);
    expect(mappings.sort()).toEqual(Object.values(EVENT_SOURCE_MAX_CONCURRENCY).sort());
    const topics = template.findResources('AWS::SNS::Topic');
    const eventsTopic = Object.entries(topics).find(([id]) => id.startsWith('EventsTopic'))![1] as { Properties: Record<string, any> };
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
    expect(groups).toHaveLength(3);
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
    expect(actionsOf('observerfn')).not.toContain('secretsmanager:GetSecretValue');
    expect(lambdaNamed('observerfn').props.Environment.Variables).not.toHaveProperty('HOOKGATE_SECRET_ARN');
    expect(actionsOf('observerfn')).toContain('sqs:ReceiveMessage');
    expect(actionsOf('gatewayfn')).toContain('sqs:SendMessage');
    expect(actionsOf('gatewayfn')).toContain('sns:Publish');
    expect(actionsOf('gatewayfn')).not.toContain('sqs:ReceiveMessage');
    expect(actionsOf('turnfn')).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:SendMessage', 'dynamodb:PutItem']));
    // No AWS-managed policy on any function role: logs are granted on the function's own log group.
    for (const role of resources('AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('serves the console only with -c console=true: its env and grants appear only then', () => {
    const CONSOLE_ENV = ['HOOKGATE_CONSOLE', RESOURCE_ENV.turnsDlqUrl, RESOURCE_ENV.timersDlqUrl, RESOURCE_ENV.eventsDlqUrl, RESOURCE_ENV.eventsQueueUrl];
    const CONSOLE_SQS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'];
    const consoleKeys = (from: Template) =>
      statementsOf('gatewayfn', from)
        .filter((st) => JSON.stringify(st.Condition ?? {}).includes('UNDELIVERED_REPLY') || JSON.stringify(st.Condition ?? {}).includes('TRACE_RECENT'))
        .flatMap((st) => [st.Action].flat());

    // Off (the default): none of it.
    expect(readStackContext(() => undefined).console).toBe(false);
    const offEnv = lambdaNamed('gatewayfn').props.Environment.Variables;
    for (const name of CONSOLE_ENV) expect(offEnv, name).not.toHaveProperty(name);
    for (const action of CONSOLE_SQS) expect(actionsOf('gatewayfn'), action).not.toContain(action);
    expect(consoleKeys(template)).toEqual([]);

    // On: the flag, the DLQ and source queue URLs, and grants on exactly those queues.
    expect(readStackContext((k) => (k === 'console' ? 'true' : undefined)).console).toBe(true);
    expect(() => readStackContext((k) => (k === 'console' ? 'yes' : undefined))).toThrow(/console/);
    const on = synth({ console: true });
    const env = lambdaNamed('gatewayfn', on).props.Environment.Variables;
    expect(env.HOOKGATE_CONSOLE).toBe('1');
    for (const name of CONSOLE_ENV) expect(env, name).toHaveProperty(name);
    // Only the gateway: the turn and observer functions are unchanged.
    for (const fn of ['turnfn', 'observerfn']) expect(lambdaNamed(fn, on).props.Environment.Variables).not.toHaveProperty('HOOKGATE_CONSOLE');
    const queueIds = Object.keys(on.findResources('AWS::SQS::Queue'));
    const dlqIds = ['TurnsDlq', 'TimersDlq', 'EventsDlq'].map((id) => queueIds.find((q) => q.startsWith(id))!);
    const receive = statementsOf('gatewayfn', on).filter((st) => [st.Action].flat().includes('sqs:ReceiveMessage'));
    expect(receive).toHaveLength(dlqIds.length);
    for (const st of receive) {
      expect([st.Action].flat().sort()).toEqual([...CONSOLE_SQS].sort());
      // One DLQ each, by ARN: never a wildcard, never a source queue.
      const resource = JSON.stringify((st as { Resource?: unknown }).Resource);
      expect(dlqIds.some((id) => resource === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })), resource).toBe(true);
    }
    const send = statementsOf('gatewayfn', on).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
    const sendTargets = send.map((st) => JSON.stringify((st as { Resource?: unknown }).Resource));
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
      const calls: Partial<Record<TableAction, RegExp>> = { Query: /new QueryCommand\b/, GetItem: /new GetCommand\b/, UpdateItem: /new UpdateCommand\b/ };
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
      const statements = statementsOf(`${name}fn`).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
      const granted = new Set(statements.flatMap((s) => [s.Action].flat()));
      const declared = new Set(TABLE_ACCESS[name].flatMap((g) => g.actions.map((a) => `dynamodb:${a}`)));
      // The role says what the declaration says: nothing from grantReadWriteData (Scan, streams, ConditionCheckItem…).
      expect([...granted].sort(), name).toEqual([...declared].sort());
      for (const statement of statements) {
        expect(statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'], `${name}: ${statement.Action}`).toBeDefined();
      }
      for (const grant of TABLE_ACCESS[name]) {
        const source = grant.calledFrom.map((file) => readFileSync(join(REPO, file), 'utf8')).join('\n');
        // Every granted action is called by the code the grant names; an unused one fails here.
        for (const action of grant.actions) expect(source, `${name}: dynamodb:${action} is not called in ${grant.calledFrom.join(', ')}`).toMatch(CALLS[action]);
        // And the prefix it is limited to is one that code writes.
        for (const prefix of grant.leadingKeys) expect(source, `${name}: ${prefix}`).toContain(prefix.replace(/\*$/, ''));
        const statement = statements.find((s) => JSON.stringify(s.Condition).includes(JSON.stringify(grant.leadingKeys)));
        expect(statement, `${name}: ${grant.leadingKeys}`).toBeDefined();
      }
    }
    console.log(
      'table actions per role:',
      Object.fromEntries((['gateway', 'turn', 'observer'] as const).map((n) => [n, [...new Set(actionsOf(`${n}fn`).filter((a) => a.startsWith('dynamodb:')))].sort()])),
    );
  });
});

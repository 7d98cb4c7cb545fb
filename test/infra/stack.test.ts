import { describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
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

const template = synth();
const resources = (type: string) => Object.values(template.findResources(type)) as { Properties: Record<string, any> }[];
const lambdaNamed = (fragment: string) => {
  const entry = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.includes(fragment));
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

  it('alarms on both DLQs and on errors of every function', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map((a) => a.Properties);
    expect(alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(2);
    expect(alarms.filter((a) => a.MetricName === 'Errors')).toHaveLength(3);
  });

  it('sets a log retention on every function log group', () => {
    const groups = resources('AWS::Logs::LogGroup');
    expect(groups).toHaveLength(3);
    for (const g of groups) expect(g.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('grants least privilege: no wildcard actions, and each function only what it uses', () => {
    const policies = resources('AWS::IAM::Policy');
    const actionsOf = (fragment: string) =>
      policies
        .filter((p) => JSON.stringify(p.Properties.Roles).includes(fragment))
        .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    for (const p of policies) {
      for (const statement of p.Properties.PolicyDocument.Statement) {
        for (const action of [statement.Action].flat()) expect(action).not.toMatch(/\*/);
      }
    }
    expect(actionsOf('observerfn')).not.toContain('sqs:SendMessage');
    expect(actionsOf('observerfn')).not.toContain('secretsmanager:GetSecretValue');
    expect(actionsOf('observerfn')).toContain('sqs:ReceiveMessage');
    expect(actionsOf('gatewayfn')).toContain('sqs:SendMessage');
    expect(actionsOf('gatewayfn')).toContain('sns:Publish');
    expect(actionsOf('gatewayfn')).not.toContain('sqs:ReceiveMessage');
    expect(actionsOf('turnfn')).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:SendMessage', 'dynamodb:PutItem']));
  });
});

import { describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HookgateStack, type HookgateStackProps } from '../../infra/lib/hookgate-stack.ts';
import { readStackContext } from '../../infra/lib/stack-context.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { cdkOutdirs } from '../support/cdk-outdir.ts';

const cdkOutdir = cdkOutdirs();

type Resource = { Properties: Record<string, any>; Type: string };

/** Synthesises without bundling (tools-function-asset.test.ts builds the real asset). */
function synth(props: Partial<HookgateStackProps> = {}): { template: Template; stack: HookgateStack } {
  const app = new App({ outdir: cdkOutdir(), context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new HookgateStack(app, 'test', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [],
    alarms: { email: 'ops@example.com' },
    ...props,
  });
  return { template: Template.fromStack(stack), stack };
}

const isolated = synth();
const open = synth({ toolsNetwork: 'internet' });

const entries = (t: Template, type: string) => Object.entries(t.findResources(type)) as [string, Resource][];
const idOf = (t: Template, type: string, fragment: string) => {
  const found = entries(t, type).filter(([id]) => id.includes(fragment));
  expect(found, `${type} ${fragment}`).toHaveLength(1);
  return found[0]![0];
};
/** Every statement of every inline policy attached to the role whose logical id contains `roleFragment`. */
const statementsOf = (t: Template, roleFragment: string) => {
  const roleId = idOf(t, 'AWS::IAM::Role', roleFragment);
  return entries(t, 'AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(`"${roleId}"`))
    .flatMap(
      ([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Effect: string }[],
    );
};
const actions = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat());

describe('the tools function in the stack', () => {
  it('exists once, with per-tenant isolation, and is exposed on the stack', () => {
    for (const { template, stack } of [isolated, open]) {
      const id = idOf(template, 'AWS::Lambda::Function', 'ToolsFunction');
      const fn = template.findResources('AWS::Lambda::Function')[id] as Resource;
      expect(fn.Properties.TenancyConfig).toEqual({ TenantIsolationMode: 'PER_TENANT' });
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Timeout).toBe(120);
      expect(stack.getLogicalId(stack.tools.function.node.defaultChild as never)).toBe(id);
    }
  });

  it('takes nothing tenant isolation cannot combine with: no Function URL, provisioned concurrency or SnapStart', () => {
    const { template } = isolated;
    const id = idOf(template, 'AWS::Lambda::Function', 'ToolsFunction');
    for (const [, url] of entries(template, 'AWS::Lambda::Url'))
      expect(JSON.stringify(url.Properties.TargetFunctionArn)).not.toContain(id);
    expect(entries(template, 'AWS::Lambda::Alias').filter(([, a]) => a.Properties.ProvisionedConcurrencyConfig)).toHaveLength(0);
    expect((template.findResources('AWS::Lambda::Function')[id] as Resource).Properties.SnapStart).toBeUndefined();
    // Invoked by the turn function alone: no event source, no permission for a service principal.
    expect(
      entries(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
        JSON.stringify(m.Properties.FunctionName).includes(id),
      ),
    ).toHaveLength(0);
    expect(
      entries(template, 'AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(id)),
    ).toHaveLength(0);
  });

  it('has no hookgate environment: no secret, no resource name, no hooks home', () => {
    for (const { template } of [isolated, open]) {
      const fn = template.findResources('AWS::Lambda::Function')[
        idOf(template, 'AWS::Lambda::Function', 'ToolsFunction')
      ] as Resource;
      expect(Object.keys(fn.Properties.Environment?.Variables ?? {})).toEqual([]);
    }
  });

  it('has a role that writes its own logs and nothing else (with -c toolsNetwork=none, also the network interfaces Lambda places in its subnets)', () => {
    const logs = ['logs:CreateLogStream', 'logs:PutLogEvents'];
    const eni = [
      'ec2:CreateNetworkInterface',
      'ec2:DeleteNetworkInterface',
      'ec2:AssignPrivateIpAddresses',
      'ec2:UnassignPrivateIpAddresses',
      'ec2:DescribeNetworkInterfaces',
      'ec2:DescribeSubnets',
    ];
    expect(actions(statementsOf(open.template, 'ToolsRole')).sort()).toEqual([...logs].sort());
    expect(actions(statementsOf(isolated.template, 'ToolsRole')).sort()).toEqual([...logs, ...eni].sort());
    const logGroup = idOf(open.template, 'AWS::Logs::LogGroup', 'ToolsLogs');
    for (const statement of statementsOf(open.template, 'ToolsRole'))
      expect(JSON.stringify(statement.Resource)).toContain(logGroup);
    // No table, secret, queue, topic, S3 or KMS, by any statement; no managed policy.
    for (const { template } of [isolated, open]) {
      for (const action of actions(statementsOf(template, 'ToolsRole'))) expect(action).toMatch(/^(logs|ec2):/);
      const role = template.findResources('AWS::IAM::Role')[idOf(template, 'AWS::IAM::Role', 'ToolsRole')] as Resource;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.Policies).toBeUndefined();
    }
    // The network-interface grants stay inside the tools VPC.
    const scoped = statementsOf(isolated.template, 'ToolsRole').filter((s) =>
      actions([s]).includes('ec2:DeleteNetworkInterface'),
    );
    expect(JSON.stringify(scoped)).toContain(idOf(isolated.template, 'AWS::EC2::VPC', 'ToolsVpc'));
  });

  it('lets the turn role invoke it (and no other function) and sign workspace URLs, and not read the gateway secret', () => {
    const { template } = isolated;
    const toolsId = idOf(template, 'AWS::Lambda::Function', 'ToolsFunction');
    const turn = statementsOf(template, 'turnrole');
    const invoke = turn.filter((s) => actions([s]).includes('lambda:InvokeFunction'));
    expect(invoke).toHaveLength(1);
    expect(JSON.stringify(invoke[0]!.Resource)).toContain(toolsId);
    for (const other of ['gatewayfn', 'turnfn', 'observerfn']) expect(JSON.stringify(invoke[0]!.Resource)).not.toContain(other);
    const bucketId = idOf(template, 'AWS::S3::Bucket', 'ToolsWorkspaces');
    const s3 = turn.filter((s) => JSON.stringify(s.Resource).includes(bucketId));
    expect(actions(s3).sort()).toEqual(['s3:GetObject', 's3:ListBucket', 's3:PutObject']);
    expect(JSON.stringify(s3.find((s) => actions([s]).includes('s3:GetObject'))!.Resource)).toContain('/workspaces/*');
    // Secrets: the turn and the observer (whose hooks sign and export with keys kept there) read the reply secret alone; the gateway reads both.
    const gatewaySecret = entries(template, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith('Secrets'))![0];
    const replySecret = idOf(template, 'AWS::SecretsManager::Secret', 'ReplySecrets');
    const secretReads = (role: string) =>
      JSON.stringify(statementsOf(template, role).filter((s) => actions([s]).includes('secretsmanager:GetSecretValue')));
    expect(secretReads('turnrole')).toContain(replySecret);
    expect(secretReads('turnrole')).not.toContain(gatewaySecret);
    expect(secretReads('gatewayrole')).toContain(replySecret);
    expect(secretReads('gatewayrole')).toContain(gatewaySecret);
    expect(secretReads('observerrole')).toContain(replySecret);
    expect(secretReads('observerrole')).not.toContain(gatewaySecret);
    const env = (fragment: string) =>
      (template.findResources('AWS::Lambda::Function')[idOf(template, 'AWS::Lambda::Function', fragment)] as Resource).Properties
        .Environment.Variables;
    expect(env('turnfn')).not.toHaveProperty(RESOURCE_ENV.secretArn);
    expect(env('turnfn')).toHaveProperty(RESOURCE_ENV.replySecretArn);
    expect(env('turnfn')[RESOURCE_ENV.toolsFunctionName]).toEqual({ Ref: toolsId });
    expect(env('turnfn')[RESOURCE_ENV.workspaceBucket]).toEqual({ Ref: bucketId });
    expect(env('gatewayfn')).toHaveProperty(RESOURCE_ENV.secretArn);
    expect(env('gatewayfn')).not.toHaveProperty(RESOURCE_ENV.toolsFunctionName);
  });

  it('with -c toolsNetwork=none (the default) runs in isolated subnets whose only way out is an S3 gateway endpoint for the workspace bucket', () => {
    const { template } = isolated;
    expect(readStackContext((k) => (k === 'alarms' ? 'none' : undefined)).toolsNetwork).toBe('none');
    const fn = template.findResources('AWS::Lambda::Function')[
      idOf(template, 'AWS::Lambda::Function', 'ToolsFunction')
    ] as Resource;
    const subnetIds = JSON.stringify(fn.Properties.VpcConfig.SubnetIds);
    const subnets = entries(template, 'AWS::EC2::Subnet');
    expect(subnets.length).toBeGreaterThan(0);
    for (const [id, subnet] of subnets) {
      expect(subnetIds).toContain(id);
      expect(subnet.Properties.MapPublicIpOnLaunch).toBe(false);
      expect(JSON.stringify(subnet.Properties.Tags)).toContain('Isolated');
    }
    // No internet gateway, no NAT, no route but the endpoint's.
    expect(entries(template, 'AWS::EC2::InternetGateway')).toHaveLength(0);
    expect(entries(template, 'AWS::EC2::NatGateway')).toHaveLength(0);
    expect(entries(template, 'AWS::EC2::Route')).toHaveLength(0);
    const endpoints = entries(template, 'AWS::EC2::VPCEndpoint');
    expect(endpoints).toHaveLength(1);
    const endpoint = endpoints[0]![1].Properties;
    expect(endpoint.VpcEndpointType).toBe('Gateway');
    expect(JSON.stringify(endpoint.ServiceName)).toContain('.s3');
    const statements = endpoint.PolicyDocument.Statement as { Effect: string; Action: string[]; Resource: unknown }[];
    const bucketId = idOf(template, 'AWS::S3::Bucket', 'ToolsWorkspaces');
    expect(statements).toHaveLength(2);
    expect(statements.map((st) => st.Effect)).toEqual(['Allow', 'Allow']);
    expect(statements[0]!.Action).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(statements[0]!.Resource)).toContain(bucketId);
    expect(JSON.stringify(statements[0]!.Resource)).toContain('/workspaces/*');
    // ListBucket on this bucket alone, so that a new session's missing archive is a 404 through the endpoint, not a 403.
    expect(statements[1]!.Action).toBe('s3:ListBucket');
    expect(JSON.stringify(statements[1]!.Resource)).toContain(bucketId);
    expect(JSON.stringify(statements[1]!.Resource)).not.toContain('/');
    // DNS answers S3's names only.
    const rules = entries(template, 'AWS::Route53Resolver::FirewallRuleGroup')[0]![1].Properties.FirewallRules as {
      Action: string;
      Priority: number;
    }[];
    expect(rules.map((r) => r.Action)).toEqual(['ALLOW', 'BLOCK']);
    expect(entries(template, 'AWS::Route53Resolver::FirewallRuleGroupAssociation')).toHaveLength(1);
  });

  it("with -c toolsNetwork=internet has no VPC (Lambda's own networking), and rejects other values", () => {
    const { template } = open;
    const fn = template.findResources('AWS::Lambda::Function')[
      idOf(template, 'AWS::Lambda::Function', 'ToolsFunction')
    ] as Resource;
    expect(fn.Properties.VpcConfig).toBeUndefined();
    expect(entries(template, 'AWS::EC2::VPC')).toHaveLength(0);
    expect(readStackContext((k) => ({ toolsNetwork: 'internet', alarms: 'none' })[k]).toolsNetwork).toBe('internet');
    expect(() => readStackContext((k) => ({ toolsNetwork: 'open', alarms: 'none' })[k])).toThrow(/toolsNetwork/);
  });
});

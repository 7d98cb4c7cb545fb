import {
  Aws,
  Duration,
  RemovalPolicy,
  Size,
  Stack,
  Validations,
  aws_ec2 as ec2,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_lambda_nodejs as nodejs,
  aws_logs as logs,
  aws_route53resolver as resolver,
  aws_s3 as s3,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { WORKSPACE_KEY_PREFIX } from '../../src/agent/sandbox/tools-function-protocol.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../../src/pipeline/topology.ts';
import { functionBundling } from './function-bundling.ts';

/** `-c toolsNetwork`: `none` (default) = a VPC whose only way out is S3, for the workspace bucket alone; `internet` = Lambda's own networking. */
export type ToolsNetwork = 'none' | 'internet';

export interface ToolsFunctionProps {
  repoRoot: string;
  network: ToolsNetwork;
  /** What happens to the workspace bucket on `cdk destroy`. */
  dataRemovalPolicy: RemovalPolicy;
  logRetention?: logs.RetentionDays;
}

/** A workspace untouched this long is deleted (each save rewrites the object, so an active one stays). */
export const WORKSPACE_EXPIRY_DAYS = 30;

/**
 * The fourth function (functions/tools.ts): the chat's terminal and file tools, one call per
 * invocation, with Lambda tenant isolation (`PER_TENANT`; the turn function invokes it with the
 * session id as tenant id), so an execution environment never serves two sessions.
 *
 * What a chat user inside it can reach, by construction (docs/security.md):
 * - its role writes its own log group and nothing else — no table, secret, queue, topic or S3
 *   (the workspace moves through presigned URLs the turn function signs); with `network: none`
 *   also the network-interface calls Lambda needs to place it in the VPC, scoped to its subnets;
 * - its environment holds no hookgate variable: no secret, no resource name;
 * - its asset holds the tools code alone: no hooks home;
 * - `network: none`: isolated subnets (no NAT, no internet gateway), one S3 gateway endpoint
 *   whose policy admits the workspace bucket alone, and a DNS firewall that answers NXDOMAIN for
 *   every name but S3's in this region (no exfiltration by DNS query either).
 *
 * Tenant isolation cannot be combined with a Function URL, provisioned concurrency or SnapStart;
 * none is used (docs/deploy.md, "The tools function").
 */
export class ToolsFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly bucket: s3.Bucket;
  readonly vpc?: ec2.Vpc;

  constructor(scope: Construct, id: string, props: ToolsFunctionProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Workspaces', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        { expiration: Duration.days(WORKSPACE_EXPIRY_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: props.dataRemovalPolicy,
      autoDeleteObjects: false,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'session workspaces, read and written only through URLs the turn function signs; an access-log bucket would cost more than it tells',
    });

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Its credentials are readable from inside (/proc of the runtime): they must be worth nothing.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grant(this.role, 'logs:CreateLogStream', 'logs:PutLogEvents');

    const network = props.network === 'none' ? this.isolatedNetwork() : undefined;
    this.vpc = network?.vpc;
    const { environment: _noHooksHome, ...bundling } = functionBundling({ repoRoot: props.repoRoot, functionName: 'tools' });
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      ...bundling,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      // CPU for the chat's commands (Lambda gives CPU in proportion to memory).
      memorySize: 1024,
      // The workspace (≤ 256 MiB unpacked) and what commands write beside it.
      ephemeralStorageSize: Size.mebibytes(1024),
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS.tools),
      tenancyConfig: lambda.TenancyConfig.PER_TENANT,
      environment: {},
      logGroup,
      role: this.role,
      loggingFormat: lambda.LoggingFormat.JSON,
      ...(network
        ? { vpc: network.vpc, vpcSubnets: { subnets: network.vpc.isolatedSubnets }, securityGroups: [network.securityGroup] }
        : {}),
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'the runtime is nodejs22.x by design (architecture §3); moving to a newer one is a deliberate, tested change',
    });
    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaLatestVersion',
      reason: 'the runtime is nodejs22.x by design (architecture §3); moving to a newer one is a deliberate, tested change',
    });
    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaTracing',
      reason:
        'no X-Ray: each tool call is an execute_tool span of the turn (docs/telemetry.md); X-Ray would also need a grant this role must not have',
    });
    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason:
        'only the turn function invokes it, synchronously (RequestResponse); a failure is answered to the model, never queued',
    });
  }

  /** Isolated subnets, the S3 gateway endpoint for the workspace bucket alone, a DNS firewall, and the ENI grants Lambda needs. */
  private isolatedNetwork(): { vpc: ec2.Vpc; securityGroup: ec2.SecurityGroup } {
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'tools', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      // The default security group is never used; restricting it would add a custom-resource function.
      restrictDefaultSecurityGroup: false,
    });
    Validations.of(vpc).acknowledge({
      id: 'AwsSolutions-VPC7',
      reason: 'nothing routes out of these subnets but the S3 gateway endpoint (workspace bucket only); DNS is filtered to S3',
    });
    const endpoint = vpc.addGatewayEndpoint('S3', {
      service: ec2.GatewayVpcEndpointAwsService.S3,
      subnets: [{ subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
    });
    // The endpoint carries requests to this bucket's workspaces alone: no other bucket, anyone's, is reachable.
    endpoint.addToPolicy(
      new iam.PolicyStatement({
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:GetObject', 's3:PutObject'],
        resources: [this.bucket.arnForObjects(`${WORKSPACE_KEY_PREFIX}*`)],
      }),
    );
    // S3 answers a missing object with 404 only to a request that may also list the bucket (else 403), and the
    // endpoint's policy is one of the policies that decide it: a new session's first fetch of its workspace archive
    // must be a 404 (presigned-workspace.ts). Listing needs credentials that may list, which nothing in these
    // subnets has: the tools function holds no S3 grant and fetches through URLs the turn presigned.
    endpoint.addToPolicy(
      new iam.PolicyStatement({
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
      }),
    );
    const securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc,
      allowAllOutbound: false,
      description: 'hookgate tools: HTTPS out (routed to S3 only)',
    });
    securityGroup.addEgressRule(
      ec2.Peer.anyIpv4(),
      ec2.Port.tcp(443),
      'HTTPS; the route tables reach S3 through the gateway endpoint and nothing else',
    );

    // DNS: S3's names in this region resolve, every other name is NXDOMAIN (a query is a way out too).
    // The regional names, and the global ones the SDK may sign for in us-east-1: AWS's names, no way out.
    const s3Names = new resolver.CfnFirewallDomainList(this, 'DnsAllowS3', {
      domains: [`s3.${Aws.REGION}.amazonaws.com`, `*.s3.${Aws.REGION}.amazonaws.com`, 's3.amazonaws.com', '*.s3.amazonaws.com'],
    });
    const everything = new resolver.CfnFirewallDomainList(this, 'DnsBlockRest', { domains: ['*'] });
    const rules = new resolver.CfnFirewallRuleGroup(this, 'DnsFirewall', {
      firewallRules: [
        { priority: 100, action: 'ALLOW', firewallDomainListId: s3Names.attrId },
        { priority: 200, action: 'BLOCK', blockResponse: 'NXDOMAIN', firewallDomainListId: everything.attrId },
      ],
    });
    new resolver.CfnFirewallRuleGroupAssociation(this, 'DnsFirewallAssociation', {
      firewallRuleGroupId: rules.attrId,
      vpcId: vpc.vpcId,
      priority: 101,
    });

    // Lambda places the function in the VPC with its execution role: the network-interface calls,
    // limited to the tools subnets and security group (Describe* takes no resource).
    const subnetArns = vpc.isolatedSubnets.map((subnet) =>
      Stack.of(this).formatArn({ service: 'ec2', resource: 'subnet', resourceName: subnet.subnetId }),
    );
    const eniArn = Stack.of(this).formatArn({ service: 'ec2', resource: 'network-interface', resourceName: '*' });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['ec2:CreateNetworkInterface'],
        resources: [
          ...subnetArns,
          Stack.of(this).formatArn({ service: 'ec2', resource: 'security-group', resourceName: securityGroup.securityGroupId }),
          eniArn,
        ],
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['ec2:DeleteNetworkInterface', 'ec2:AssignPrivateIpAddresses', 'ec2:UnassignPrivateIpAddresses'],
        resources: [eniArn],
        conditions: {
          StringEquals: { 'ec2:Vpc': Stack.of(this).formatArn({ service: 'ec2', resource: 'vpc', resourceName: vpc.vpcId }) },
        },
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({ actions: ['ec2:DescribeNetworkInterfaces', 'ec2:DescribeSubnets'], resources: ['*'] }),
    );
    Validations.of(this.role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ec2:<AWS::Region>:<AWS::AccountId>:network-interface/*]',
        reason: 'Lambda names the network interfaces it creates: network-interface/*, limited to the tools subnets and VPC',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'ec2:DescribeNetworkInterfaces and ec2:DescribeSubnets take no resource; Lambda needs them to place the function in the VPC',
      },
    );
    return { vpc, securityGroup };
  }
}

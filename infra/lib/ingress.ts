import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  type Stack,
  aws_apigateway as apigateway,
  aws_certificatemanager as acm,
  type aws_cloudwatch as cloudwatch,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_wafv2 as wafv2,
} from 'aws-cdk-lib';
import { PLATFORM_NAMES } from '../../src/platforms/registry.ts';
import type { IngressOptions } from './stack-context.ts';
import { acceptFinding } from './accept-finding.ts';

/** The chat platforms a deployment serves (`local` is `hookgate dev`'s own). */
export const DEPLOYED_PLATFORMS = PLATFORM_NAMES.filter((p) => p !== 'local');

/**
 * Requests per second (steady, burst) API Gateway lets through per route before it answers
 * 429, so that a flood on one route cannot take the gateway λ's instances from the others.
 * Platforms retry a 429 (Telegram, Slack, WhatsApp and Teams retry; Discord shows an error).
 */
export const ROUTE_THROTTLE = {
  webhook: { rate: 50, burst: 100 },
  v1: { rate: 20, burst: 40 },
  console: { rate: 5, burst: 10 },
  healthz: { rate: 1, burst: 5 },
  /** Every other path: the gateway answers 404. */
  other: { rate: 5, burst: 10 },
} as const;

export interface Ingress {
  /** `https://…/`: the webhooks are at `webhooks/<platform>` below it. */
  readonly baseUrl: string;
  /** Front-door 5xx for the alarms. */
  readonly serverErrors: { readonly name: string; readonly metric: cloudwatch.IMetric }[];
  /** API Gateway's own request, 5xx and latency metrics, for the dashboard. */
  readonly metrics?: {
    readonly title: string;
    readonly requests: cloudwatch.IMetric;
    readonly serverErrors: cloudwatch.IMetric;
    readonly latency: cloudwatch.IMetric;
  };
}

/**
 * The front door of the gateway λ. `url` (default): a Function URL, auth `NONE` — every
 * platform signs its requests and the app verifies them; no per-request charge, no 30 s
 * limit. `apigateway`: a regional REST API proxying to the same function, with throttling
 * per route ({@link ROUTE_THROTTLE}), access logs, an optional WAF web ACL on its stage and
 * an optional custom domain (then the execute-api endpoint is off: the domain is the one
 * door, and webhook URLs survive replacing the API). Either way the stack outputs each
 * platform's webhook URL.
 *
 * @example
 * const ingress = addIngress(this, gateway, { kind: 'apigateway', wafAclArn });
 */
export function addIngress(scope: Stack, gateway: lambda.Function, options: IngressOptions): Ingress {
  let ingress: Ingress;
  if (options.kind === 'url') {
    const url = gateway.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });
    ingress = {
      baseUrl: url.url,
      serverErrors: [
        { name: 'FunctionUrl', metric: gateway.metric('Url5xxCount', { period: Duration.minutes(1), statistic: 'Sum' }) },
      ],
    };
  } else {
    ingress = restApi(scope, gateway, options);
  }
  new CfnOutput(scope, 'WebhookBaseUrl', { value: ingress.baseUrl, description: 'append webhooks/<platform> for each platform' });
  for (const platform of DEPLOYED_PLATFORMS) {
    const title = platform[0]!.toUpperCase() + platform.slice(1);
    new CfnOutput(scope, `WebhookUrl${title}`, {
      value: `${ingress.baseUrl}webhooks/${platform}`,
      description: `register this with ${title}`,
    });
  }
  return ingress;
}

function restApi(scope: Stack, gateway: lambda.Function, options: Extract<IngressOptions, { kind: 'apigateway' }>): Ingress {
  const accessLogs = new logs.LogGroup(scope, 'ApiAccessLogs', {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const throttle = (t: { rate: number; burst: number }) => ({ throttlingRateLimit: t.rate, throttlingBurstLimit: t.burst });
  const methodOptions: Record<string, apigateway.MethodDeploymentOptions> = {
    '/healthz/GET': throttle(ROUTE_THROTTLE.healthz),
    '/v1/{proxy+}/ANY': throttle(ROUTE_THROTTLE.v1),
    '/console/GET': throttle(ROUTE_THROTTLE.console),
    '/console/{proxy+}/ANY': throttle(ROUTE_THROTTLE.console),
    '/{proxy+}/ANY': throttle(ROUTE_THROTTLE.other),
  };
  for (const platform of DEPLOYED_PLATFORMS) {
    methodOptions[`/webhooks/${platform}/POST`] = throttle(ROUTE_THROTTLE.webhook);
    if (platform === 'whatsapp') methodOptions['/webhooks/whatsapp/GET'] = throttle(ROUTE_THROTTLE.webhook); // the verification handshake
  }
  // One integration, every route: the app routes and verifies; API Gateway only throttles.
  const integration = new apigateway.LambdaIntegration(gateway, { proxy: true, allowTestInvoke: false });
  const api = new apigateway.RestApi(scope, 'Api', {
    // Named for the stack: API Gateway's metrics (the 5xx alarm) are keyed by this name, which
    // would otherwise be `Api` in every stack of the account and region.
    restApiName: `${scope.stackName}-api`,
    defaultIntegration: integration,
    description: "hookgate: the chat platforms' webhooks, /v1 and the console, proxied to the gateway function",
    endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
    // With a custom domain, the domain is the one door (a WAF on the stage covers both anyway).
    disableExecuteApiEndpoint: options.domain !== undefined,
    // Access logs need the account's API Gateway logging role.
    cloudWatchRole: true,
    cloudWatchRoleRemovalPolicy: RemovalPolicy.DESTROY,
    deployOptions: {
      stageName: 'live',
      ...throttle(ROUTE_THROTTLE.other),
      methodOptions,
      accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
      accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
      loggingLevel: apigateway.MethodLoggingLevel.ERROR,
      metricsEnabled: true,
    },
  });
  // With a custom domain the execute-api endpoint answers nothing: no output names it.
  if (options.domain) api.node.tryRemoveChild('Endpoint');
  const webhooks = api.root.addResource('webhooks');
  for (const platform of DEPLOYED_PLATFORMS) {
    const route = webhooks.addResource(platform);
    route.addMethod('POST', integration);
    if (platform === 'whatsapp') route.addMethod('GET', integration);
  }
  api.root.addResource('v1').addProxy({ defaultIntegration: integration, anyMethod: true });
  const consoleRoute = api.root.addResource('console');
  consoleRoute.addMethod('GET', integration);
  consoleRoute.addProxy({ defaultIntegration: integration, anyMethod: true });
  api.root.addResource('healthz').addMethod('GET', integration);
  // Anything else (and `/`, which the root proxy also claims): the app answers 404.
  api.root.addProxy({ defaultIntegration: integration, anyMethod: true });

  acceptFinding(
    api,
    'AwsSolutions-APIG2',
    "every body is validated by the app (zod) after its signature is checked; a model here would repeat each platform's schema",
  );
  const authReason =
    'platforms sign their webhooks (Telegram secret token, Slack HMAC, Discord Ed25519, WhatsApp HMAC, Teams JWT) and /v1 and the console need the bearer token; the app verifies each, API Gateway has no scheme a chat platform speaks';
  acceptFinding(api, 'AwsSolutions-APIG4', authReason);
  acceptFinding(api, 'AwsSolutions-COG4', authReason);
  acceptFinding(
    api,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    "API Gateway's account-wide logging role takes this AWS service policy by design; access logs need it",
  );
  acceptFinding(
    api,
    'Serverless-APIGWXrayEnabled',
    "no X-Ray: requests are in the access log and the gateway's own log; X-Ray would be a second, per-trace billed record",
  );
  if (options.wafAclArn) {
    new wafv2.CfnWebACLAssociation(scope, 'ApiWafAssociation', {
      resourceArn: api.deploymentStage.stageArn,
      webAclArn: options.wafAclArn,
    });
  }
  let baseUrl = api.url;
  if (options.domain) {
    const domain = api.addDomainName('ApiDomain', {
      domainName: options.domain.name,
      certificate: acm.Certificate.fromCertificateArn(scope, 'ApiCertificate', options.domain.certificateArn),
      endpointType: apigateway.EndpointType.REGIONAL,
      securityPolicy: apigateway.SecurityPolicy.TLS_1_2,
    });
    baseUrl = `https://${options.domain.name}/`;
    new CfnOutput(scope, 'ApiDomainTarget', {
      value: domain.domainNameAliasDomainName,
      description: `point ${options.domain.name} here (CNAME, or a Route 53 alias)`,
    });
  }
  const minute = { period: Duration.minutes(1) };
  return {
    baseUrl,
    serverErrors: [{ name: 'Api', metric: api.metricServerError({ ...minute, statistic: 'Sum' }) }],
    metrics: {
      title: 'API Gateway',
      requests: api.metricCount({ ...minute, statistic: 'Sum' }),
      serverErrors: api.metricServerError({ ...minute, statistic: 'Sum' }),
      latency: api.metricLatency({ ...minute, statistic: 'p95' }),
    },
  };
}

import { describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
import { DEPLOYED_PLATFORMS, ROUTE_THROTTLE } from '../../infra/lib/ingress.ts';
import { readStackContext, type IngressOptions } from '../../infra/lib/stack-context.ts';
import { CDK_JSON_CONTEXT } from '../support/cdk-json-context.ts';
import { cdkOutdirs } from '../support/cdk-outdir.ts';

const cdkOutdir = cdkOutdirs();

/** Synthesises without bundling (the bundle test builds the real assets). */
function synth(ingress?: IngressOptions): Template {
  const app = new App({ outdir: cdkOutdir(), context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  const stack = new HookgateStack(app, 'test', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [],
    alarms: { email: 'ops@example.com' },
    ...(ingress ? { ingress } : {}),
  });
  return Template.fromStack(stack);
}

const contextOf = (values: Record<string, string>) => readStackContext((key) => ({ alarms: 'none', ...values })[key]);
const WAF = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/hookgate/0c1d2e3f-aaaa-bbbb-cccc-111122223333';
const CERT = 'arn:aws:acm:eu-west-1:123456789012:certificate/0c1d2e3f-aaaa-bbbb-cccc-111122223333';

const props = (t: Template, type: string) =>
  (Object.values(t.findResources(type)) as { Properties: Record<string, any> }[]).map((r) => r.Properties);

// Synthesis takes seconds to tens of seconds on a loaded 2-core machine.
describe('the front door', { timeout: 180_000 }, () => {
  it('reads -c ingress, wafAclArn, domainName and certificateArn, and refuses what cannot work', () => {
    expect(contextOf({}).ingress).toEqual({ kind: 'url' });
    expect(
      contextOf({ ingress: 'apigateway', wafAclArn: WAF, domainName: 'bot.example.com', certificateArn: CERT }).ingress,
    ).toEqual({
      kind: 'apigateway',
      wafAclArn: WAF,
      domain: { name: 'bot.example.com', certificateArn: CERT },
    });
    expect(() => contextOf({ ingress: 'cloudfront' })).toThrow(/ingress/);
    expect(() => contextOf({ wafAclArn: WAF })).toThrow(/need -c ingress=apigateway/);
    expect(() => contextOf({ ingress: 'apigateway', domainName: 'bot.example.com' })).toThrow(
      /domainName and certificateArn go together/,
    );
    expect(() => contextOf({ ingress: 'apigateway', wafAclArn: 'my-acl' })).toThrow(/wafAclArn/);
    expect(() => contextOf({ ingress: 'apigateway', domainName: 'not a name', certificateArn: CERT })).toThrow(/domainName/);
  });

  it("url (default): a Function URL, no API, and each platform's webhook URL as an output", () => {
    const t = synth();
    t.resourceCountIs('AWS::Lambda::Url', 1);
    t.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    for (const platform of DEPLOYED_PLATFORMS) {
      const title = platform[0]!.toUpperCase() + platform.slice(1);
      const output = t.findOutputs(`WebhookUrl${title}`);
      expect(JSON.stringify(output), platform).toContain(`webhooks/${platform}`);
      expect(JSON.stringify(output)).toContain('FunctionUrl');
    }
    expect(DEPLOYED_PLATFORMS).not.toContain('local');
  });

  it('apigateway: a REST API proxying every route to the gateway, throttled per route, with access logs and a 5xx alarm', () => {
    const t = synth({ kind: 'apigateway' });
    t.resourceCountIs('AWS::Lambda::Url', 0);
    t.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    const [stage] = props(t, 'AWS::ApiGateway::Stage');
    const settings = stage!.MethodSettings as {
      ResourcePath: string;
      HttpMethod: string;
      ThrottlingRateLimit: number;
      ThrottlingBurstLimit: number;
    }[];
    const throttleOf = (path: string, method: string) => settings.find((m) => m.ResourcePath === path && m.HttpMethod === method);
    for (const platform of DEPLOYED_PLATFORMS) {
      // CloudFormation wants the path with `/` escaped as `~1`.
      expect(throttleOf(`/~1webhooks~1${platform}`, 'POST'), platform).toMatchObject({
        ThrottlingRateLimit: ROUTE_THROTTLE.webhook.rate,
        ThrottlingBurstLimit: ROUTE_THROTTLE.webhook.burst,
      });
    }
    expect(throttleOf('/~1webhooks~1whatsapp', 'GET')).toBeDefined();
    expect(throttleOf('/~1v1~1{proxy+}', 'ANY')).toMatchObject({ ThrottlingRateLimit: ROUTE_THROTTLE.v1.rate });
    expect(throttleOf('/~1console~1{proxy+}', 'ANY')).toMatchObject({ ThrottlingRateLimit: ROUTE_THROTTLE.console.rate });
    // The stage default covers anything else.
    expect(throttleOf('/*', '*')).toMatchObject({
      ThrottlingRateLimit: ROUTE_THROTTLE.other.rate,
      ThrottlingBurstLimit: ROUTE_THROTTLE.other.burst,
    });
    // Every method has a throttle of its own.
    const methods = props(t, 'AWS::ApiGateway::Method');
    expect(methods.length).toBe(DEPLOYED_PLATFORMS.length + 1 + 1 + 2 + 1 + 2); // webhooks, WhatsApp's GET, /v1, /console (2), /healthz, /{proxy+} and /
    expect(stage!.AccessLogSetting?.DestinationArn).toBeDefined();
    // Proxied to the gateway function, and the gateway may be invoked by this API only.
    for (const method of methods) expect(method.Integration.Type).toBe('AWS_PROXY');
    const alarms = props(t, 'AWS::CloudWatch::Alarm');
    const serverErrors = alarms.filter((a) => a.MetricName === '5XXError' && a.Namespace === 'AWS/ApiGateway');
    expect(serverErrors).toHaveLength(1);
    // Keyed by the API's name, which is the stack's: another stack's API cannot feed this alarm.
    expect(props(t, 'AWS::ApiGateway::RestApi')[0]!.Name).toBe('test-api');
    expect(serverErrors[0]!.Dimensions).toEqual([{ Name: 'ApiName', Value: 'test-api' }]);
    expect(alarms.filter((a) => a.MetricName === 'Url5xxCount')).toHaveLength(0);
    expect(JSON.stringify(t.findOutputs('WebhookUrlTelegram'))).toContain('webhooks/telegram');
    // No WAF, no domain unless asked.
    t.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    t.resourceCountIs('AWS::ApiGateway::DomainName', 0);
  });

  it('apigateway with -c wafAclArn: the web ACL is associated with the API stage', () => {
    const t = synth({ kind: 'apigateway', wafAclArn: WAF });
    const [association] = props(t, 'AWS::WAFv2::WebACLAssociation');
    expect(association!.WebACLArn).toBe(WAF);
    const stageId = Object.keys(t.findResources('AWS::ApiGateway::Stage'))[0]!;
    const apiId = Object.keys(t.findResources('AWS::ApiGateway::RestApi'))[0]!;
    const arn = JSON.stringify(association!.ResourceArn);
    expect(arn).toContain(apiId);
    expect(arn).toContain(stageId);
  });

  it('apigateway with -c domainName -c certificateArn: a regional custom domain with the certificate, webhook URLs on it, the execute-api endpoint off', () => {
    const t = synth({ kind: 'apigateway', domain: { name: 'bot.example.com', certificateArn: CERT } });
    const [domain] = props(t, 'AWS::ApiGateway::DomainName');
    expect(domain).toMatchObject({
      DomainName: 'bot.example.com',
      RegionalCertificateArn: CERT,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    t.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
    expect(props(t, 'AWS::ApiGateway::RestApi')[0]!.DisableExecuteApiEndpoint).toBe(true);
    // No output names the execute-api URL, which answers nothing now.
    expect(JSON.stringify(t.toJSON().Outputs)).not.toContain('execute-api');
    for (const platform of DEPLOYED_PLATFORMS) {
      const title = platform[0]!.toUpperCase() + platform.slice(1);
      expect(Object.values(t.findOutputs(`WebhookUrl${title}`))[0]!.Value).toBe(`https://bot.example.com/webhooks/${platform}`);
    }
    expect(Object.keys(t.findOutputs('ApiDomainTarget'))).toHaveLength(1);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App, RemovalPolicy, Stack, Validations, aws_sqs as sqs } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
import { CDK_JSON_CONTEXT } from '../support/cdk-json-context.ts';
import { cdkOutdirs } from '../support/cdk-outdir.ts';

const cdkOutdir = cdkOutdirs();

interface ValidationReport {
  pluginReports: { pluginName: string; violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** cdk-nag's rule packs the stack is held to. */
const rulePacks = (app: App): NagPack[] => [new AwsSolutionsChecks(app), new ServerlessChecks(app)];

/**
 * Synthesises with AWS's own rule packs (cdk-nag AwsSolutions and Serverless) as policy-validation
 * plugins and returns every finding not acknowledged in code (`Validations.of(…).acknowledge`).
 */
function awsSolutionsFindings(build: (app: App) => void): { findings: string[]; outdir: string } {
  const outdir = mkdtempSync(join(tmpdir(), 'hookgate-nag-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  build(app);
  Validations.of(app).addPlugins(...rulePacks(app));
  try {
    app.synth();
  } catch (error) {
    // Findings make synth throw; the report says which.
    if (!existsSync(join(outdir, 'validation-report.json'))) throw error;
  }
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  const findings = report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} at ${c.constructPath}`)),
  );
  return { findings, outdir };
}

const SLOW = 240_000; // synthesis with the rule pack takes tens of seconds on a loaded 2-core machine
let fullStackOutdir: string | undefined;

/** Every option that adds resources: the Function URL stack with all extras, and the API Gateway front door with WAF and domain. */
const fullStack = (app: App) => {
  new HookgateStack(app, 'hookgate', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [{ name: 'audit', eventTypes: ['post_tool_call'] }],
    alarms: { email: 'ops@example.com' },
    // The console's extra grants are checked too (a superset of the default stack's).
    console: true,
    gatewayConcurrency: 20,
  });
  new HookgateStack(app, 'hookgate-api', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [],
    alarms: { topicArn: 'arn:aws:sns:eu-west-1:123456789012:pager' },
    ingress: {
      kind: 'apigateway',
      wafAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/hookgate/0c1d2e3f-aaaa-bbbb-cccc-111122223333',
      domain: {
        name: 'bot.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0c1d2e3f-aaaa-bbbb-cccc-111122223333',
      },
    },
  });
};

describe("AWS's own checks of the synthesised stack", () => {
  it(
    'cdk-nag AwsSolutions and Serverless: zero unacknowledged findings',
    () => {
      const { findings, outdir } = awsSolutionsFindings(fullStack);
      fullStackOutdir = outdir;
      expect(findings).toEqual([]);
    },
    SLOW,
  );

  it(
    'no dead acknowledgement: each names a finding the packs really report there, with a reason',
    () => {
      const app = new App({ outdir: cdkOutdir(), context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
      fullStack(app);
      // Every finding, acknowledged or not: the packs' own check of the acknowledgement metadata is switched off.
      const findings: { rule: string; path: string }[] = [];
      for (const pack of rulePacks(app)) {
        Object.defineProperty(pack, 'isAcknowledged', { value: () => false });
        const report = (
          pack as unknown as {
            validateScope(scope: App): { violations: { ruleName: string; violatingResources: { constructPath: string }[] }[] };
          }
        ).validateScope(app);
        for (const v of report.violations)
          for (const r of v.violatingResources) findings.push({ rule: v.ruleName, path: r.constructPath });
      }
      const acknowledgements = app.node.findAll().flatMap((node) =>
        node.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) =>
            Object.entries(m.data as Record<string, unknown>).map(([id, reason]) => ({
              id: id.replace(/^annotation::/i, ''),
              reason,
              path: node.node.path,
            })),
          ),
      );
      expect(acknowledgements.length).toBeGreaterThan(10);
      // Only the packs' own rules: CDK itself acknowledges some of cfn-lint's (e.g. CloudFormation-Validate::W3010 for a VPC's AZs).
      for (const ack of acknowledgements.filter((a) => /^(AwsSolutions|Serverless)-/.test(a.id))) {
        expect(JSON.stringify(ack.reason).length, `${ack.id} at ${ack.path}: a reason`).toBeGreaterThan(30);
        const used = findings.some((f) => f.rule === ack.id && (f.path === ack.path || f.path.startsWith(`${ack.path}/`)));
        expect(
          used,
          `${ack.id} at ${ack.path} acknowledges nothing (findings there: ${findings
            .filter((f) => f.path.startsWith(ack.path))
            .map((f) => f.rule)
            .join(', ')})`,
        ).toBe(true);
      }
    },
    SLOW,
  );

  it(
    'cdk-nag really runs: an unencrypted queue without a DLQ is reported',
    () => {
      const { findings } = awsSolutionsFindings((app) => {
        const stack = new Stack(app, 'canary');
        new sqs.Queue(stack, 'Plain', { encryption: sqs.QueueEncryption.UNENCRYPTED });
      });
      expect(findings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^AwsSolutions-SQS3 at canary\/Plain/),
          expect.stringMatching(/^AwsSolutions-SQS4 at canary\/Plain/),
          expect.stringMatching(/^Serverless-SQSRedrivePolicy at canary\/Plain/),
        ]),
      );
    },
    SLOW,
  );

  it(
    'cfn-lint: zero errors on the synthesised template',
    (context) => {
      const probe = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
      if (probe.error || probe.status !== 0) {
        // Only npm and Debian packages can be installed here, and cfn-lint is neither.
        console.log('cfn-lint skipped: the cfn-lint command is not installed (pip install cfn-lint)');
        context.skip();
        return;
      }
      const outdir = fullStackOutdir ?? awsSolutionsFindings(fullStack).outdir;
      const files = ['hookgate.template.json', 'hookgate-api.template.json'].map((name) => join(outdir, name));
      const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', ...files], { encoding: 'utf8' });
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter(Boolean);
      console.log(`cfn-lint ${probe.stdout.trim()}: ${lines.length} findings`, lines);
      // Parseable format: file:line:col:line:col:RULE:message; E… are errors (W… warnings, I… informational).
      expect(lines.filter((line) => /:E\d{4}:/.test(line))).toEqual([]);
      // Exit status bits: 2 = errors (4 warnings and 8 informational are not failures).
      expect((run.status ?? 2) & 2).toBe(0);
    },
    SLOW,
  );
});

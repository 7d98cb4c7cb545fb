import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App, RemovalPolicy, Stack, Validations, aws_sqs as sqs } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
import { CDK_JSON_CONTEXT } from '../support/cdk-json-context.ts';

interface ValidationReport {
  pluginReports: { pluginName: string; violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Synthesises with AWS's own rule pack (cdk-nag AwsSolutions) as a policy-validation plugin
 * and returns every finding not acknowledged in code (`Validations.of(…).acknowledge`).
 */
function awsSolutionsFindings(build: (app: App) => void): { findings: string[]; outdir: string } {
  const outdir = mkdtempSync(join(tmpdir(), 'hookgate-nag-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  build(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
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

const fullStack = (app: App) =>
  new HookgateStack(app, 'hookgate', {
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    telemetrySubscribers: [{ name: 'audit', eventTypes: ['post_tool_call'] }],
    alarms: { email: 'ops@example.com' },
    // The console's extra grants are checked too (a superset of the default stack's).
    console: true,
  });

describe("AWS's own checks of the synthesised stack", () => {
  it('cdk-nag AwsSolutions: zero unacknowledged findings', () => {
    const { findings, outdir } = awsSolutionsFindings(fullStack);
    fullStackOutdir = outdir;
    expect(findings).toEqual([]);
  }, SLOW);

  it('cdk-nag really runs: an unencrypted queue without a DLQ is reported', () => {
    const { findings } = awsSolutionsFindings((app) => {
      const stack = new Stack(app, 'canary');
      new sqs.Queue(stack, 'Plain', { encryption: sqs.QueueEncryption.UNENCRYPTED });
    });
    expect(findings).toEqual(expect.arrayContaining([expect.stringMatching(/^AwsSolutions-SQS3 at canary\/Plain/), expect.stringMatching(/^AwsSolutions-SQS4 at canary\/Plain/)]));
  }, SLOW);

  it('cfn-lint: zero errors on the synthesised template', (context) => {
    const probe = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      // Only npm and Debian packages can be installed here, and cfn-lint is neither.
      console.log('cfn-lint skipped: the cfn-lint command is not installed (pip install cfn-lint)');
      context.skip();
      return;
    }
    const outdir = fullStackOutdir ?? awsSolutionsFindings(fullStack).outdir;
    const file = join(outdir, 'hookgate.template.json');
    const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', file], { encoding: 'utf8' });
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter(Boolean);
    console.log(`cfn-lint ${probe.stdout.trim()}: ${lines.length} findings`, lines);
    // Parseable format: file:line:col:line:col:RULE:message; E… are errors (W… warnings, I… informational).
    expect(lines.filter((line) => /:E\d{4}:/.test(line))).toEqual([]);
    // Exit status bits: 2 = errors (4 warnings and 8 informational are not failures).
    expect((run.status ?? 2) & 2).toBe(0);
  }, SLOW);
});

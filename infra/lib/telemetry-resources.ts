import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { acceptFinding } from './accept-finding.ts';
import { OUTBOX_SWEEP_EVENT } from '../../src/pipeline/outbox-sweep-event.ts';

export interface TelemetryResourcesProps {
  observer: lambda.Function;
  /** `-c otlpEndpoint=URL`. */
  otlpEndpoint?: string;
}

/**
 * What telemetry adds to the stack (docs/telemetry.md, docs/reliability.md):
 * - the outbox sweep: an EventBridge schedule invokes the observer function every minute with
 *   `{"hookgate":"outbox-sweep"}`; it publishes what the outbox holds to the events topic (its
 *   grants: table-access.ts and resource-access.ts);
 * - with `-c otlpEndpoint=URL`, the observer exports traces and metrics there
 *   (`HOOKGATE_OTLP_ENDPOINT`) with `HOOKGATE_OTLP_HEADERS` from the reply secret, which the
 *   observer reads anyway (its http hooks sign with a key kept there).
 * EMF metrics (namespace `hookgate`) need no grant: they are log lines.
 *
 * @example
 * addTelemetryResources(this, { observer, otlpEndpoint: props.otlpEndpoint });
 */
export function addTelemetryResources(scope: Construct, props: TelemetryResourcesProps): void {
  const sweep = new events.Rule(scope, 'OutboxSweep', {
    description: 'hookgate: publish observer events SNS did not take (the observer outbox)',
    schedule: events.Schedule.rate(Duration.minutes(1)),
    targets: [
      new targets.LambdaFunction(props.observer, {
        event: events.RuleTargetInput.fromObject(OUTBOX_SWEEP_EVENT),
        retryAttempts: 0,
      }),
    ],
  });
  acceptFinding(
    sweep,
    'Serverless-EventBusDLQ',
    "a sweep that fails is the next minute's sweep: the outbox items stay on the table until published, so a dead-letter queue would hold nothing to act on",
  );
  if (props.otlpEndpoint) {
    props.observer.addEnvironment('HOOKGATE_OTLP_ENDPOINT', props.otlpEndpoint);
  }
}

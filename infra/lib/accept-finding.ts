import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag finding (AwsSolutions or Serverless pack) on a construct and all
 * below it, with the reason it is accepted. test/infra/aws-checks.test.ts fails on an
 * acknowledgement that no finding needs.
 *
 * @example
 * acceptFinding(dlq, 'Serverless-SQSRedrivePolicy', 'a dead-letter queue has none of its own');
 */
export function acceptFinding(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

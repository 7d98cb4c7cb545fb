import type { LocalAws } from '../../src/local/emulators.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';

/**
 * The resource variables the stack sets on every function (`RESOURCE_ENV`: table, queues, topic,
 * bucket), naming the emulators' resources: for a built function run in a child process.
 *
 * @example
 * spawn(process.execPath, ['index.mjs'], { env: { ...stackResourceEnv(aws), AWS_REGION: aws.region } });
 */
export function stackResourceEnv(
  aws: Pick<LocalAws, 'tableName' | 'turnsQueueUrl' | 'timersQueueUrl' | 'eventsTopicArn' | 'payloadBucket'>,
): NodeJS.ProcessEnv {
  return {
    [RESOURCE_ENV.tableName]: aws.tableName,
    [RESOURCE_ENV.turnsQueueUrl]: aws.turnsQueueUrl,
    [RESOURCE_ENV.timersQueueUrl]: aws.timersQueueUrl,
    [RESOURCE_ENV.eventsTopicArn]: aws.eventsTopicArn,
    [RESOURCE_ENV.payloadBucket]: aws.payloadBucket,
  };
}

import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * Messages on a queue, waiting or in flight: 0 once every delivery has been consumed and deleted.
 * What a test waits on (through `until`) instead of sleeping "long enough" for consumers to finish.
 *
 * @example
 * await until(async () => (await queueDepth(sqs, aws.eventsQueueUrl)) === 0, 'the events queue drained');
 */
export async function queueDepth(sqs: SQSClient, queueUrl: string): Promise<number> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
}

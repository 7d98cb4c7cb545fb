import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { EVENT_TYPE_ATTRIBUTE } from '../../src/pipeline/topology.ts';
import type { LocalAws } from '../../src/local/emulators.ts';

/**
 * Locally, what the stack's `telemetrySubscribers` context does in AWS: a queue of its own
 * subscribed to the events topic with raw delivery and, with `eventTypes`, a filter policy
 * on the `event_type` message attribute. The observer queue keeps getting every event.
 *
 * @example
 * const audit = await addTelemetrySubscriber(aws, { name: 'audit', eventTypes: ['post_tool_call'] });
 * // receive from audit.queueUrl
 */
export async function addTelemetrySubscriber(
  aws: LocalAws,
  subscriber: { name: string; eventTypes?: readonly string[] },
): Promise<{ queueUrl: string; queueArn: string; subscriptionArn: string }> {
  const config = { region: aws.region, credentials: aws.credentials };
  const sqs = new SQSClient({ ...config, endpoint: aws.sqsEndpoint });
  const sns = new SNSClient({ ...config, endpoint: aws.snsEndpoint });
  try {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `hookgate-telemetry-${subscriber.name}` }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    const { SubscriptionArn } = await sns.send(
      new SubscribeCommand({
        TopicArn: aws.eventsTopicArn,
        Protocol: 'sqs',
        Endpoint: Attributes!.QueueArn!,
        ReturnSubscriptionArn: true,
        Attributes: {
          RawMessageDelivery: 'true',
          ...(subscriber.eventTypes
            ? { FilterPolicy: JSON.stringify({ [EVENT_TYPE_ATTRIBUTE]: [...subscriber.eventTypes] }) }
            : {}),
        },
      }),
    );
    return { queueUrl: QueueUrl!, queueArn: Attributes!.QueueArn!, subscriptionArn: SubscriptionArn! };
  } finally {
    sqs.destroy();
    sns.destroy();
  }
}

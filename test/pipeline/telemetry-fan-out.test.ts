import { describe, expect, it } from 'vitest';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { addTelemetrySubscriber } from '../support/telemetry-subscriber.ts';
import { parseEnvelope } from '../../src/pipeline/envelope.ts';
import { useTestDataPlane } from '../support/local-aws.ts';

describe('telemetry fan-out from the events topic', () => {
  const local = useTestDataPlane();

  /** Everything on a queue until a receive comes back empty (long poll 1 s). */
  const drain = async (queueUrl: string): Promise<Message[]> => {
    const out: Message[] = [];
    for (;;) {
      const { Messages = [] } = await local.plane.clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageAttributeNames: ['All'],
        }),
      );
      if (Messages.length === 0) return out;
      out.push(...Messages);
      await local.plane.clients.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
  };

  it('gives a filtered subscriber only its types, an unfiltered one and the observer queue everything', async () => {
    const audit = await addTelemetrySubscriber(local.aws, { name: 'audit', eventTypes: ['post_tool_call', 'agent:end'] });
    const all = await addTelemetrySubscriber(local.aws, { name: 'all' });
    const types = ['post_tool_call', 'agent:step', 'agent:end', 'post_llm_call', 'post_tool_call', 'session:end'];
    const ids = await local.plane.observerSink.publish(types.map((type, i) => ({ type, payload: { i } })));

    const observer = (await drain(local.aws.eventsQueueUrl)).map((m) => parseEnvelope(m.Body!));
    const audited = (await drain(audit.queueUrl)).map((m) => parseEnvelope(m.Body!));
    const everything = (await drain(all.queueUrl)).map((m) => parseEnvelope(m.Body!));

    expect(observer.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(everything.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(audited.map((e) => e.type).sort()).toEqual(['agent:end', 'post_tool_call', 'post_tool_call']);
    // The same envelope, byte for byte, reaches every consumer (raw delivery: no SNS wrapper).
    const one = audited.find((e) => e.type === 'agent:end')!;
    expect(observer.find((e) => e.id === one.id)).toEqual(one);
  });
});

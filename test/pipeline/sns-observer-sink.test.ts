import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { PublishBatchCommand, SNSClient, type PublishBatchCommandOutput } from '@aws-sdk/client-sns';
import { S3Client } from '@aws-sdk/client-s3';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { SnsObserverSink } from '../../src/pipeline/sns-observer-sink.ts';
import { S3PayloadStore } from '../../src/pipeline/payload-store.ts';
import { EnvelopeSchema, parseEnvelope } from '../../src/pipeline/envelope.ts';
import { InvalidObserverEventError, ObserverPublishError } from '../../src/pipeline/observer-publish-error.ts';
import { startTestAws } from '../support/local-aws.ts';

describe('SnsObserverSink', () => {
  let aws: RunningEmulators;
  let sns: SNSClient;
  let sqs: SQSClient;
  let s3: S3Client;
  let payloads: S3PayloadStore;

  const drain = async (count: number): Promise<Message[]> => {
    const out: Message[] = [];
    for (let tries = 0; out.length < count && tries < 50; tries++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: aws.eventsQueueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageAttributeNames: ['All'],
        }),
      );
      out.push(...Messages);
      if (Messages.length) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: aws.eventsQueueUrl,
            Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
      }
    }
    return out;
  };

  beforeAll(async () => {
    aws = await startTestAws();
    const config = { region: aws.region, credentials: aws.credentials };
    sns = new SNSClient({ ...config, endpoint: aws.snsEndpoint });
    sqs = new SQSClient({ ...config, endpoint: aws.sqsEndpoint });
    s3 = new S3Client({ ...config, endpoint: aws.s3Endpoint, forcePathStyle: true });
    payloads = new S3PayloadStore(s3, aws.payloadBucket);
  });
  afterAll(async () => {
    for (const c of [sns, sqs, s3]) c?.destroy();
    await aws?.stop();
  });

  it('publishes envelope v1 with the event_type attribute, in batches, and returns the ids', async () => {
    const sink = new SnsObserverSink({ sns, topicArn: aws.eventsTopicArn, payloads });
    const events = Array.from({ length: 23 }, (_, i) => ({
      type: i % 2 ? 'post_tool_call' : 'agent:step',
      payload: { n: i, big: 10n, when: new Date('2026-01-01T00:00:00Z'), nested: { ok: true } },
      ...(i === 0 ? { id: 'caller-chosen', session_id: 's1', turn_id: 't1' } : {}),
    }));
    const ids = await sink.publish(events);
    expect(ids).toHaveLength(23);
    expect(ids[0]).toBe('caller-chosen');
    expect(new Set(ids).size).toBe(23);
    const messages = await drain(23);
    expect(messages).toHaveLength(23);
    const envelopes = messages.map((m) => parseEnvelope(m.Body!));
    expect(envelopes.map((e) => e.id).sort()).toEqual([...ids].sort());
    const first = envelopes.find((e) => e.id === 'caller-chosen')!;
    expect(first).toMatchObject({
      v: 1,
      type: 'agent:step',
      session_id: 's1',
      turn_id: 't1',
      payload: { n: 0, big: '10', when: '2026-01-01T00:00:00.000Z', nested: { ok: true } },
    });
    for (const m of messages) {
      const envelope = parseEnvelope(m.Body!);
      expect(m.MessageAttributes?.event_type?.StringValue).toBe(envelope.type);
    }
    expect(envelopes.filter((e) => e.session_id === null)).toHaveLength(22);
  });

  it('redacts secrets in the keys a caller may set (id, session id, turn id) to a digest: hidden, still one value per key', async () => {
    const sink = new SnsObserverSink({ sns, topicArn: aws.eventsTopicArn, payloads });
    const token = 'sk-abcdefghijklmnopqrstuvwxyz0123';
    const ids = await sink.publish([
      { type: 'post_tool_call', id: `${token}-1`, session_id: token, turn_id: `t-${token}`, payload: { v: token } },
      { type: 'post_tool_call', id: `${token}-2`, session_id: token, payload: {} },
      { type: 'post_tool_call', id: 'plain-id', session_id: 'plain-session', payload: {} },
    ]);
    expect(ids[0]).toMatch(/^redacted-[0-9a-f]{32}$/);
    expect(ids[1]).toMatch(/^redacted-[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBe('plain-id');
    const bodies = (await drain(3)).map((m) => m.Body!);
    expect(bodies.join('\n')).not.toContain('abcdefghijklmnop');
    const envelopes = bodies.map((b) => parseEnvelope(b));
    const sessions = envelopes.filter((e) => e.id !== 'plain-id').map((e) => e.session_id);
    expect(sessions[0]).toMatch(/^redacted-/);
    expect(sessions[1]).toBe(sessions[0]);
    expect(envelopes.find((e) => e.id === 'plain-id')?.session_id).toBe('plain-session');
  });

  it('offloads an oversized payload to S3 and carries a checked pointer instead of truncating', async () => {
    const sink = new SnsObserverSink({ sns, topicArn: aws.eventsTopicArn, payloads });
    const transcript = 'é'.repeat(300_000);
    const [id] = await sink.publish([
      { type: 'post_llm_call', payload: { assistant_response: transcript } },
      { type: 'agent:step', payload: {} },
    ]);
    const messages = await drain(2);
    const envelope = messages.map((m) => parseEnvelope(m.Body!)).find((e) => e.id === id)!;
    expect(envelope.payload).toBeNull();
    if (!('payload_ref' in envelope)) throw new Error('expected an offloaded envelope');
    expect(JSON.parse(await payloads.get(envelope.payload_ref))).toEqual({ assistant_response: transcript });
    expect(EnvelopeSchema.safeParse(envelope).success).toBe(true);
  });

  it('retries entries that failed in a partial batch until they are published', async () => {
    // A client that lets the real topic take every entry but the first on the first try.
    let calls = 0;
    const flaky = {
      send: async (command: PublishBatchCommand): Promise<PublishBatchCommandOutput> => {
        calls++;
        if (calls > 1) return sns.send(command);
        const [first, ...rest] = command.input.PublishBatchRequestEntries!;
        const out = await sns.send(new PublishBatchCommand({ ...command.input, PublishBatchRequestEntries: rest }));
        return { ...out, Failed: [{ Id: first!.Id!, Code: 'InternalError', SenderFault: false, Message: 'try again' }] };
      },
    } as unknown as SNSClient;
    const sink = new SnsObserverSink({ sns: flaky, topicArn: aws.eventsTopicArn, payloads, baseDelayMs: 1 });
    const ids = await sink.publish(Array.from({ length: 5 }, (_, i) => ({ type: 'agent:step', payload: { i } })));
    expect(calls).toBe(2);
    const got = (await drain(5)).map((m) => parseEnvelope(m.Body!).id).sort();
    expect(got).toEqual([...ids].sort());
  });

  it('rejects with ObserverPublishError when it finally cannot publish', async () => {
    const sink = new SnsObserverSink({
      sns,
      topicArn: aws.eventsTopicArn.replace('hookgate-events', 'no-such-topic'),
      payloads,
      maxAttempts: 2,
      baseDelayMs: 1,
    });
    const error = await sink.publish([{ id: 'e1', type: 'agent:step', payload: {} }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObserverPublishError);
    expect((error as ObserverPublishError).failedIds).toEqual(['e1']);
    expect((error as Error).message).toMatch(/after 2 attempts/);
  });

  it('refuses an event whose payload cannot be serialised, with a clear error', async () => {
    const sink = new SnsObserverSink({ sns, topicArn: aws.eventsTopicArn, payloads });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(sink.publish([{ type: 'agent:step', payload: cyclic }])).rejects.toBeInstanceOf(InvalidObserverEventError);
    await expect(sink.publish([{ type: '', payload: {} }])).rejects.toThrow(/non-empty string/);
    await expect(sink.publish([{ id: 'x'.repeat(201), type: 'agent:step', payload: {} }])).rejects.toThrow(/1 to 200 characters/);
  });
});

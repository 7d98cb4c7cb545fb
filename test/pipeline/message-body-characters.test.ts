import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiJson } from '../../src/pipeline/ascii-json.ts';
import { parseEnvelope } from '../../src/pipeline/envelope.ts';
import { TimerMessageSchema } from '../../src/pipeline/timer-message.ts';
import { TurnMessageSchema } from '../../src/pipeline/turn-message.ts';
import { useTestDataPlane } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

/**
 * What real SQS and SNS accept in a message body (the emulators are more or less lenient;
 * production is the truth): `#x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD | #x10000–#x10FFFF`.
 */
const AWS_BODY = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(fc.constantFrom('\u0000', '\u000b', '\u001f', '\ufffe', '\uffff', '\ud800', '\udfff', '😀', '\u{10ffff}', 'a'))
    .map((a) => a.join('')),
);

describe('asciiJson', () => {
  it('is printable ASCII and parses back to exactly what JSON.stringify gives', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const body = asciiJson({ text, [text]: [text] });
        expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
        expect(JSON.parse(body)).toEqual({ text, [text]: [text] });
      }),
      { numRuns: 300 },
    );
  });
});

describe('bodies on the queues and the topic carry only characters real SQS/SNS accept (issue #14 item 1)', () => {
  const local = useTestDataPlane();

  async function receiveOne(queueUrl: string): Promise<string> {
    const message = await until(async () => {
      const { Messages = [] } = await local.plane.clients.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 1 }),
      );
      return Messages[0];
    }, `a message on ${queueUrl}`);
    await local.plane.clients.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    return message.Body!;
  }

  const source = { platform: 'local', chat_id: 'c', user_id: 'u', user_name: 'ü', chat_type: 'dm', thread_id: '' };
  const event = (text: string) => ({
    text,
    message_id: 'm',
    internal: false,
    source,
    reply: { platform: 'local', chat_id: 'c', thread_id: '', extra: {} },
  });

  it('observer envelopes through SNS', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        await local.plane.observerSink.publish([
          { type: 'post_tool_call', payload: { result: text, [text]: 1 }, session_id: text },
        ]);
        const body = await receiveOne(local.aws.eventsQueueUrl);
        expect(AWS_BODY.test(body)).toBe(true);
        const envelope = parseEnvelope(body);
        // The parse drops a top-level `__proto__` key rather than make it the payload's prototype (docs/data-plane.md).
        expect(envelope.payload).toEqual(text === '__proto__' ? { result: text } : { result: text, [text]: 1 });
        expect(Object.getPrototypeOf(envelope.payload)).toBe(Object.prototype);
        expect(envelope.session_id === text).toBe(true);
      }),
      { numRuns: 25, examples: [['\ufffe\uffff\u0000😀\ud800'], ['__proto__']] },
    );
  });

  it('a payload value whose toString throws is published as its tag, not lost (issue #14 item 2)', async () => {
    class Unprintable {
      toString(): string {
        throw new Error('no text');
      }
    }
    await local.plane.observerSink.publish([{ type: 'post_tool_call', payload: { odd: new Unprintable(), ok: 1 } }]);
    const envelope = parseEnvelope(await receiveOne(local.aws.eventsQueueUrl));
    expect(envelope.payload).toEqual({ odd: '[object Object]', ok: 1 });
  });

  it('turn and timer messages', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        // A fresh delivery id each time: the FIFO queue drops a repeated one.
        const turn = {
          v: 1 as const,
          kind: 'message' as const,
          delivery_id: `local:${++n}:${text}`,
          session_key: `local:${text}`,
          received_at: new Date().toISOString(),
          event: event(text),
        };
        await local.plane.turnQueue.send(turn);
        const body = await receiveOne(local.aws.turnsQueueUrl);
        expect(AWS_BODY.test(body)).toBe(true);
        expect(TurnMessageSchema.parse(JSON.parse(body))).toEqual(turn);
        const approval = {
          v: 1 as const,
          kind: 'approval' as const,
          delivery_id: text,
          session_key: text,
          received_at: turn.received_at,
          approval_id: text,
          choice: 'timeout' as const,
        };
        await local.plane.timerQueue.schedule(approval, 0);
        const timerBody = await receiveOne(local.aws.timersQueueUrl);
        expect(AWS_BODY.test(timerBody)).toBe(true);
        expect(TimerMessageSchema.parse(JSON.parse(timerBody)).message).toEqual(approval);
      }),
      { numRuns: 15, examples: [['\ufffe\uffff\u0000😀\ud800']] },
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { SqsTurnQueue, TurnEnqueueError } from '../../src/pipeline/turn-queue-sender.ts';
import { SqsTimerQueue } from '../../src/pipeline/timer-queue-sender.ts';
import { TimerMessageSchema, timerStep } from '../../src/pipeline/timer-message.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { startTestAws } from '../support/local-aws.ts';

const approval = (delivery_id: string, session_key = 'telegram:42:'): TurnMessage => ({
  v: 1,
  kind: 'approval',
  delivery_id,
  session_key,
  received_at: '2026-01-01T00:00:00.000Z',
  approval_id: 'a1',
  choice: 'timeout',
});

describe('turn and timer queue senders', () => {
  let aws: RunningEmulators;
  let sqs: SQSClient;
  beforeAll(async () => {
    aws = await startTestAws();
    sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
  });
  afterAll(async () => {
    sqs?.destroy();
    await aws?.stop();
  });

  it('sends turns with group = session key and dedup id = delivery id (a retry is dropped)', async () => {
    const turns = new SqsTurnQueue(sqs, aws.turnsQueueUrl);
    await turns.send(approval('d-1'));
    await turns.send(approval('d-1'));
    await turns.send(approval('d 2 with spaces', 'chat with spaces'));
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: aws.turnsQueueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!).delivery_id).sort()).toEqual(['d 2 with spaces', 'd-1']);
    const first = Messages.find((m) => JSON.parse(m.Body!).delivery_id === 'd-1')!;
    expect(first.Attributes?.MessageGroupId).toBe('telegram:42:');
    expect(first.Attributes?.MessageDeduplicationId).toBe('d-1');
    const spaced = Messages.find((m) => JSON.parse(m.Body!).delivery_id !== 'd-1')!;
    expect(spaced.Attributes?.MessageGroupId).toMatch(/^h:[0-9a-f]{64}$/);
  });

  it('rejects an invalid turn message before sending', async () => {
    const turns = new SqsTurnQueue(sqs, aws.turnsQueueUrl);
    await expect(turns.send({ ...approval('x'), choice: 'maybe' } as unknown as TurnMessage)).rejects.toBeInstanceOf(
      TurnEnqueueError,
    );
  });

  it('schedules timers on the standard queue; long waits hop in ≤ 900 s steps', async () => {
    const timers = new SqsTimerQueue(sqs, aws.timersQueueUrl);
    const now = new Date('2026-01-01T00:00:00Z');
    const long = await timers.schedule(approval('d-long'), 3600, now);
    expect(long.fire_at).toBe('2026-01-01T01:00:00.000Z');
    expect(timerStep(long, now)).toEqual({ due: false, delaySeconds: 900 });
    expect(timerStep(long, new Date('2026-01-01T00:59:30Z'))).toEqual({ due: false, delaySeconds: 30 });
    expect(timerStep(long, new Date('2026-01-01T01:00:00Z'))).toEqual({ due: true, message: approval('d-long') });

    await timers.schedule(approval('d-now'), 0);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.timersQueueUrl, WaitTimeSeconds: 1 }));
    expect(Messages).toHaveLength(1);
    const timer = TimerMessageSchema.parse(JSON.parse(Messages[0]!.Body!));
    expect(timer.message.delivery_id).toBe('d-now');
  });
});

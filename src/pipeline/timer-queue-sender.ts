import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_DELAY_SECONDS, TimerMessageSchema, type TimerMessage } from './timer-message.ts';
import type { TurnMessage } from './turn-message.ts';
import { asciiJson } from './ascii-json.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

export class TimerScheduleError extends HookgateError {
  override readonly name = 'TimerScheduleError';
}

export interface TimerQueue {
  /** Delivers `message` to the turn runtime after `delaySeconds` (any length; long waits hop). */
  schedule(message: TurnMessage, delaySeconds: number, now?: Date): Promise<TimerMessage>;
  /** Puts a timer that came back too early on the queue again, for `delaySeconds` ≤ 900. */
  resend(timer: TimerMessage, delaySeconds: number): Promise<void>;
}

/**
 * The standard timers queue (FIFO queues have no per-message delay): each message waits
 * `DelaySeconds` ≤ 900 and is then handled by the turn runtime, which forwards it to the
 * turns queue when due (`timerStep`) or re-delays it.
 *
 * @example
 * const timers = new SqsTimerQueue(sqs, aws.timersQueueUrl);
 * await timers.schedule({ v: 1, kind: 'approval', choice: 'timeout', … }, 300);
 */
export class SqsTimerQueue implements TimerQueue {
  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
  ) {}

  async schedule(message: TurnMessage, delaySeconds: number, now: Date = new Date()): Promise<TimerMessage> {
    const wait = Math.max(0, Math.ceil(delaySeconds));
    const timer = TimerMessageSchema.parse({
      v: 1,
      kind: 'timer',
      fire_at: new Date(now.getTime() + wait * 1000).toISOString(),
      message,
    });
    await this.resend(timer, wait);
    return timer;
  }

  async resend(timer: TimerMessage, delaySeconds: number): Promise<void> {
    try {
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: asciiJson(timer),
          DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
        }),
      );
    } catch (error) {
      throw new TimerScheduleError(`could not schedule timer for ${timer.message.delivery_id}: ${errorText(error)}`, {
        cause: error,
      });
    }
  }
}

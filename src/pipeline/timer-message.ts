import * as z from '../validation/zod.ts';
import { TurnMessageSchema, type TurnMessage } from './turn-message.ts';

/**
 * The body of one message on the standard timers queue: a turn message to forward to the
 * turns queue at `fire_at`. SQS delays at most 900 s, so a longer wait is re-delayed.
 */
export const TimerMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('timer'),
  fire_at: z.iso.datetime({ offset: true }),
  message: TurnMessageSchema,
});
export type TimerMessage = z.infer<typeof TimerMessageSchema>;

/** SQS `DelaySeconds` ceiling. */
export const MAX_DELAY_SECONDS = 900;

/**
 * What to do with a timer that has come off the queue: forward its message now, or wait
 * `delaySeconds` more (re-send to the timers queue).
 *
 * @example
 * const step = timerStep(timer);
 * if (step.due) await turns.send(step.message); else await timers.resend(timer, step.delaySeconds);
 */
export function timerStep(
  timer: TimerMessage,
  now: Date = new Date(),
): { due: true; message: TurnMessage } | { due: false; delaySeconds: number } {
  const remaining = Math.ceil((Date.parse(timer.fire_at) - now.getTime()) / 1000);
  if (remaining <= 0) return { due: true, message: timer.message };
  return { due: false, delaySeconds: Math.min(MAX_DELAY_SECONDS, remaining) };
}

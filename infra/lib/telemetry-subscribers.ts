import * as z from 'zod';
import { HookgateError } from '../../src/errors/hookgate-error.ts';

/**
 * `-c telemetrySubscribers='[{"name":"audit","eventTypes":["post_tool_call"]}]'`: extra queues
 * subscribed to the events topic, each with raw delivery and an optional filter on the
 * envelope's `type` (SNS message attribute `event_type`).
 */
export const TelemetrySubscriberSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, - and _ only (it names a queue)'),
  eventTypes: z.array(z.string().min(1)).min(1).optional(),
});
export type TelemetrySubscriber = z.infer<typeof TelemetrySubscriberSchema>;

export class TelemetrySubscribersContextError extends HookgateError {
  override readonly name = 'TelemetrySubscribersContextError';
}

/** Parses the context value, which CDK hands over as a string from `-c` or as JSON from cdk.json. */
export function parseTelemetrySubscribers(raw: unknown): TelemetrySubscriber[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new TelemetrySubscribersContextError(`context telemetrySubscribers is not JSON: ${raw}`);
    }
  }
  const parsed = z.array(TelemetrySubscriberSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TelemetrySubscribersContextError(`context telemetrySubscribers[${issue?.path.join('.')}]: ${issue?.message}`);
  }
  const names = new Set<string>();
  for (const { name } of parsed.data) {
    if (names.has(name)) throw new TelemetrySubscribersContextError(`context telemetrySubscribers: duplicate name ${name}`);
    names.add(name);
  }
  return parsed.data;
}

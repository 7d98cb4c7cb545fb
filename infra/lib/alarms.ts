import {
  Duration,
  type Stack,
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  type aws_lambda as lambda,
  aws_sns as sns,
  aws_sns_subscriptions as subscriptions,
  type aws_sqs as sqs,
} from 'aws-cdk-lib';
import type { AlarmDestination } from './stack-context.ts';

/** A function the stack runs: alarmed and charted by name (`turn` → `TurnErrors`, `TurnDuration`). */
export interface MonitoredFunction {
  readonly name: string;
  readonly fn: lambda.Function;
  readonly timeoutSeconds: number;
}

/** A queue something consumes: its oldest message alarms past `maxAgeSeconds`. */
export interface MonitoredQueue {
  /** The construct-id prefix of its alarm: `Turns` → `TurnsOldestMessageAge`. */
  readonly name: string;
  readonly queue: sqs.IQueue;
  readonly maxAgeSeconds: number;
  /** What it means when the alarm fires, for the alarm description. */
  readonly meaning: string;
}

/** A dead-letter queue: any message in it alarms. */
export interface MonitoredDlq {
  readonly name: string;
  readonly queue: sqs.IQueue;
  readonly meaning: string;
}

export interface StackAlarmsProps {
  readonly destination: AlarmDestination;
  /** Where an alarm mail SNS cannot deliver goes (the subscription's redrive policy). */
  readonly subscriptionDlq?: sqs.IQueue;
  readonly functions: readonly MonitoredFunction[];
  readonly queues: readonly MonitoredQueue[];
  readonly deadLetterQueues: readonly MonitoredDlq[];
  /** Server errors of the front door (Function URL or API Gateway): any alarms. */
  readonly serverErrors: readonly { readonly name: string; readonly metric: cloudwatch.IMetric }[];
  /** hookgate's own metrics that alarm when above zero (undelivered replies, stray hook errors). */
  readonly metrics?: readonly { readonly id: string; readonly description: string; readonly metric: cloudwatch.IMetric }[];
}

/** A function whose slowest invocation of a minute took more than this share of its timeout alarms. */
export const DURATION_ALARM_SHARE = 0.8;

/**
 * Every alarm of the stack, each notifying one destination: a new topic with `-c alarmEmail`
 * subscribed, or the operator's own `-c alarmTopicArn`. `alarms: 'none'` creates none (and no
 * topic): the operator said so. Per function: errors, throttles, and a duration over 80 % of
 * its timeout; per consumed queue: the age of its oldest message; per DLQ: any message; the
 * front door's 5xx; hookgate's own metrics above zero (`metrics`). A new function or queue is
 * one more entry in the lists.
 *
 * Construct ids are the stack's own (`TurnErrors`, `OldestTurnAge`…), so alarms keep their
 * logical ids when this code moves.
 *
 * @example
 * const { topic } = addStackAlarms(this, { destination: { email: 'ops@example.com' }, functions, queues, deadLetterQueues, serverErrors });
 */
export function addStackAlarms(scope: Stack, props: StackAlarmsProps): { topic?: sns.ITopic; alarms: cloudwatch.Alarm[] } {
  if (props.destination === 'none') return { alarms: [] };
  let topic: sns.ITopic;
  if ('topicArn' in props.destination) {
    topic = sns.Topic.fromTopicArn(scope, 'AlarmTopic', props.destination.topicArn);
  } else {
    const own = new sns.Topic(scope, 'AlarmTopic', { displayName: 'hookgate alarms', enforceSSL: true });
    own.addSubscription(
      new subscriptions.EmailSubscription(
        props.destination.email,
        props.subscriptionDlq ? { deadLetterQueue: props.subscriptionDlq } : {},
      ),
    );
    topic = own;
  }
  const notify = new cloudwatchActions.SnsAction(topic);
  const alarms: cloudwatch.Alarm[] = [];
  const alarmOn = (id: string, description: string, metric: cloudwatch.IMetric, threshold = 0) => {
    const alarm = new cloudwatch.Alarm(scope, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(notify);
    alarms.push(alarm);
  };
  const minute = { period: Duration.minutes(1) };
  for (const dlq of props.deadLetterQueues) {
    alarmOn(`${dlq.name}Depth`, `hookgate: ${dlq.meaning}`, dlq.queue.metricApproximateNumberOfMessagesVisible(minute));
  }
  for (const queue of props.queues) {
    alarmOn(
      queue.name === 'Turns' ? 'OldestTurnAge' : `${queue.name}OldestMessageAge`,
      `hookgate: the oldest message of the ${queue.name.toLowerCase()} queue has waited more than ${queue.maxAgeSeconds} s (${queue.meaning})`,
      queue.queue.metricApproximateAgeOfOldestMessage({ ...minute, statistic: cloudwatch.Stats.MAXIMUM }),
      queue.maxAgeSeconds,
    );
  }
  for (const { name, fn, timeoutSeconds } of props.functions) {
    const title = name[0]!.toUpperCase() + name.slice(1);
    alarmOn(`${title}Errors`, `hookgate: the ${name} function reported errors`, fn.metricErrors(minute));
    alarmOn(
      `${title}Throttles`,
      `hookgate: the ${name} function was throttled (concurrency limits reached)`,
      fn.metricThrottles(minute),
    );
    const limitMs = Math.round(DURATION_ALARM_SHARE * timeoutSeconds * 1000);
    alarmOn(
      `${title}Duration`,
      `hookgate: an invocation of the ${name} function took more than ${DURATION_ALARM_SHARE * 100} % of its ${timeoutSeconds} s timeout`,
      fn.metricDuration({ ...minute, statistic: cloudwatch.Stats.MAXIMUM }),
      limitMs,
    );
  }
  for (const { id, description, metric } of props.metrics ?? []) alarmOn(id, `hookgate: ${description}`, metric);
  for (const { name, metric } of props.serverErrors) {
    alarmOn(
      `${name}ServerErrors`,
      `hookgate: the front door (${name}) answered 5xx: platforms are retrying or giving up`,
      metric,
    );
  }
  return { topic, alarms };
}

import { Duration, type Stack, aws_cloudwatch as cloudwatch, type aws_logs as logs } from 'aws-cdk-lib';
import { HOOK_RUN_MESSAGE } from '../../functions/support/hook-run-log.ts';
import { STRAY_ERROR_EVENTS } from '../../functions/support/stray-hook-errors.ts';
import type { MonitoredFunction, MonitoredQueue } from './alarms.ts';

export interface StackDashboardProps {
  readonly functions: readonly (MonitoredFunction & { readonly logGroup: logs.ILogGroup })[];
  readonly queues: readonly MonitoredQueue[];
  /** The front door's requests, 5xx and latency, when it has metrics of its own (API Gateway). */
  readonly ingress?: {
    readonly title: string;
    readonly requests: cloudwatch.IMetric;
    readonly serverErrors: cloudwatch.IMetric;
    readonly latency: cloudwatch.IMetric;
  };
}

/**
 * One CloudWatch dashboard with the golden signals: per function, traffic (invocations),
 * errors and throttles, latency (p50 / p95 against the timeout) and saturation (concurrent
 * executions); per queue, the oldest message and the backlog; per hook, runs, p50 / p95
 * latency, blocks and errors, read by Logs Insights from the one line each hook run writes
 * (functions/support/hook-run-log.ts) — no custom metric is billed per hook.
 *
 * @example
 * addStackDashboard(this, { functions, queues });
 */
export function addStackDashboard(scope: Stack, props: StackDashboardProps): cloudwatch.Dashboard {
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: `${scope.stackName}-golden-signals`,
    defaultInterval: Duration.hours(3),
  });
  const period = Duration.minutes(1);
  if (props.ingress) {
    dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: `${props.ingress.title}: requests and 5xx`,
        left: [props.ingress.requests],
        right: [props.ingress.serverErrors],
        width: 12,
      }),
      new cloudwatch.GraphWidget({ title: `${props.ingress.title}: latency`, left: [props.ingress.latency], width: 12 }),
    );
  }
  for (const { name, fn, timeoutSeconds } of props.functions) {
    dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: `### ${name} function`, width: 24, height: 1 }),
      new cloudwatch.GraphWidget({
        title: `${name}: invocations, errors, throttles`,
        left: [fn.metricInvocations({ period })],
        right: [fn.metricErrors({ period }), fn.metricThrottles({ period })],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: `${name}: duration p50 / p95 (ms)`,
        left: [fn.metricDuration({ period, statistic: 'p50' }), fn.metricDuration({ period, statistic: 'p95' })],
        leftAnnotations: [{ value: timeoutSeconds * 1000, label: 'timeout', color: cloudwatch.Color.RED }],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: `${name}: concurrent executions`,
        left: [fn.metric('ConcurrentExecutions', { period, statistic: cloudwatch.Stats.MAXIMUM })],
        width: 8,
      }),
    );
  }
  dashboard.addWidgets(
    new cloudwatch.TextWidget({ markdown: '### queues', width: 24, height: 1 }),
    new cloudwatch.GraphWidget({
      title: 'oldest message (s)',
      left: props.queues.map((q) =>
        q.queue.metricApproximateAgeOfOldestMessage({ period, statistic: cloudwatch.Stats.MAXIMUM, label: q.name }),
      ),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'messages waiting',
      left: props.queues.map((q) =>
        q.queue.metricApproximateNumberOfMessagesVisible({ period, statistic: cloudwatch.Stats.MAXIMUM, label: q.name }),
      ),
      width: 12,
    }),
  );
  const logGroupNames = props.functions.map((f) => f.logGroup.logGroupName);
  const hookRuns = `filter message = ${JSON.stringify(HOOK_RUN_MESSAGE)}`;
  dashboard.addWidgets(
    new cloudwatch.TextWidget({ markdown: "### hooks (one line per hook run in the functions' logs)", width: 24, height: 1 }),
    new cloudwatch.LogQueryWidget({
      title: 'per hook: runs, p50 / p95 latency (ms), blocks, errors',
      logGroupNames,
      queryLines: [
        hookRuns,
        'stats count(*) as runs, pct(duration_ms, 50) as p50_ms, pct(duration_ms, 95) as p95_ms, sum(strcontains(outcome, "block")) as blocks, sum(strcontains(outcome, "error")) as errors by hook, source, callback',
        'sort errors desc, blocks desc, p95_ms desc',
      ],
      view: cloudwatch.LogQueryVisualizationType.TABLE,
      width: 24,
      height: 8,
    }),
    new cloudwatch.LogQueryWidget({
      title: 'per hook: p95 latency (ms)',
      logGroupNames,
      queryLines: [hookRuns, 'stats pct(duration_ms, 95) as p95_ms by bin(5m), hook'],
      view: cloudwatch.LogQueryVisualizationType.LINE,
      width: 12,
    }),
    new cloudwatch.LogQueryWidget({
      title: 'per hook: blocks and errors',
      logGroupNames,
      queryLines: [hookRuns, 'filter outcome != "ok"', 'stats count(*) as runs by bin(5m), hook, outcome'],
      view: cloudwatch.LogQueryVisualizationType.STACKEDAREA,
      width: 12,
    }),
    // A hook's left-behind work that failed: logged, the instance went on (functions/support/stray-hook-errors.ts).
    new cloudwatch.LogQueryWidget({
      title: "stray errors (a hook's left-behind work), latest first",
      logGroupNames,
      queryLines: [
        `filter event in ${JSON.stringify(Object.values(STRAY_ERROR_EVENTS))}`,
        'fields @timestamp, service, event, hook, reason',
        'sort @timestamp desc',
        'limit 20',
      ],
      view: cloudwatch.LogQueryVisualizationType.TABLE,
      width: 24,
      height: 6,
    }),
  );
  return dashboard;
}

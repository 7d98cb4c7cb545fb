import { SQSClient } from '@aws-sdk/client-sqs';
import { loadDeploymentResources, sqsEndpointOverride } from '../config/deployment-config.ts';
import { resolveHooksHome } from '../hooks/hooks-home.ts';
import { explicitDevHome, findRunningDev } from '../local/dev-endpoints.ts';
import { RESOURCE_ENV } from '../pipeline/resource-env.ts';
import { describeHookgateStack } from './stack-resources.ts';
import { HookgateError } from '../errors/hookgate-error.ts';

/** The DLQs `hookgate dlq` works on, each with its source queue. */
export const DLQ_NAMES = ['events', 'turns', 'timers'] as const;
export type DlqName = (typeof DLQ_NAMES)[number];

/** Where each DLQ and its source queue are found: the key of the URL in every lookup and the variables that set them. */
const QUEUE_KEYS = {
  events: { dlq: 'eventsDlqUrl', source: 'eventsQueueUrl' },
  turns: { dlq: 'turnsDlqUrl', source: 'turnsQueueUrl' },
  timers: { dlq: 'timersDlqUrl', source: 'timersQueueUrl' },
} as const satisfies Record<DlqName, { dlq: keyof typeof RESOURCE_ENV; source: keyof typeof RESOURCE_ENV }>;

export interface DlqTargetOptions {
  /** Which DLQ: the observer events' (default), the turns' or the timers' (approval timeouts). */
  queue?: DlqName;
  /** A DLQ URL given outright (deployed or local). */
  queueUrl?: string;
  /** Where `replay` sends messages (the DLQ's source queue). */
  targetUrl?: string;
  /** A deployed stack whose queues to use. */
  stack?: string;
  /** Hooks home whose running `hookgate dev` to use. */
  home?: string;
}

export interface DlqTarget {
  sqs: SQSClient;
  dlqUrl: string;
  sourceQueueUrl?: string;
  /** For messages: where the queue was found. */
  via: string;
}

export class DlqTargetError extends HookgateError {
  override readonly name = 'DlqTargetError';
}

/**
 * Finds the DLQ `hookgate dlq` works on, first match wins: `--queue-url`, `--stack`
 * (CloudFormation), HOOKGATE_EVENTS_DLQ_URL / HOOKGATE_TURNS_DLQ_URL / HOOKGATE_TIMERS_DLQ_URL
 * (with the matching queue URL variables), then the running `hookgate dev` of the hooks home. Deployed queues use the
 * standard credential chain; `AWS_ENDPOINT_URL_SQS` is honoured.
 *
 * @example
 * const { sqs, dlqUrl, sourceQueueUrl } = await resolveDlqTarget({ queue: 'events' });
 */
export async function resolveDlqTarget(options: DlqTargetOptions, env: NodeJS.ProcessEnv = process.env): Promise<DlqTarget> {
  // With an endpoint override the queue URL's own host must not win (emulator URLs name
  // hosts that do not resolve); otherwise the SDK's default of following the URL is right.
  const deployedSqs = () => {
    const endpoint = sqsEndpointOverride(env);
    return new SQSClient(endpoint ? { endpoint } : {});
  };
  const name = options.queue ?? 'events';
  const keys = QUEUE_KEYS[name];
  const withTarget = (url: string | undefined) => (url ? { sourceQueueUrl: url } : {});
  if (options.queueUrl) {
    return { sqs: deployedSqs(), dlqUrl: options.queueUrl, ...withTarget(options.targetUrl), via: '--queue-url' };
  }
  if (options.stack) {
    const found = await describeHookgateStack(options.stack);
    const dlqUrl = found[keys.dlq];
    if (!dlqUrl) throw new DlqTargetError(`stack ${options.stack} has no ${name} DLQ`);
    return {
      sqs: deployedSqs(),
      dlqUrl,
      ...withTarget(options.targetUrl ?? found[keys.source]),
      via: `stack ${options.stack}`,
    };
  }
  const resources = loadDeploymentResources(env);
  const envDlq = resources[keys.dlq];
  if (envDlq) {
    return {
      sqs: deployedSqs(),
      dlqUrl: envDlq,
      ...withTarget(options.targetUrl ?? resources[keys.source]),
      via: 'environment',
    };
  }
  const found = await findRunningDev({ ...explicitDevHome(options.home, env), defaultHome: resolveHooksHome(env) });
  if ('why' in found) {
    throw new DlqTargetError(`${found.why}; pass --queue-url URL, --stack NAME or set ${RESOURCE_ENV[keys.dlq]}`);
  }
  const dev = found.endpoints;
  return {
    // The emulators' queue URLs name a host that does not resolve: the endpoint must be explicit.
    sqs: new SQSClient({ endpoint: dev.sqsEndpoint, region: dev.region, credentials: dev.credentials }),
    dlqUrl: dev[keys.dlq],
    ...withTarget(options.targetUrl ?? dev[keys.source]),
    via: `hookgate dev (pid ${dev.pid})`,
  };
}

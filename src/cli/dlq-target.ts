import { SQSClient } from '@aws-sdk/client-sqs';
import { loadDeploymentResources, sqsEndpointOverride } from '../config/deployment-config.ts';
import { resolveHooksHome } from '../hooks/hooks-home.ts';
import { explicitDevHome, findRunningDev } from '../local/dev-endpoints.ts';
import { RESOURCE_ENV } from '../pipeline/resource-env.ts';
import { describeHookgateStack } from './stack-resources.ts';
import { HookgateError } from '../errors/hookgate-error.ts';

export interface DlqTargetOptions {
  /** Which DLQ: the observer events' (default) or the turns'. */
  queue?: 'events' | 'turns';
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
 * (CloudFormation), HOOKGATE_EVENTS_DLQ_URL / HOOKGATE_TURNS_DLQ_URL (with the matching queue
 * URL variables), then the running `hookgate dev` of the hooks home. Deployed queues use the
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
  const turns = options.queue === 'turns';
  const withTarget = (url: string | undefined) => (url ? { sourceQueueUrl: url } : {});
  if (options.queueUrl) {
    return { sqs: deployedSqs(), dlqUrl: options.queueUrl, ...withTarget(options.targetUrl), via: '--queue-url' };
  }
  if (options.stack) {
    const found = await describeHookgateStack(options.stack);
    const dlqUrl = turns ? found.turnsDlqUrl : found.eventsDlqUrl;
    if (!dlqUrl) throw new DlqTargetError(`stack ${options.stack} has no ${turns ? 'turns' : 'events'} DLQ`);
    return {
      sqs: deployedSqs(),
      dlqUrl,
      ...withTarget(options.targetUrl ?? (turns ? found.turnsQueueUrl : found.eventsQueueUrl)),
      via: `stack ${options.stack}`,
    };
  }
  const resources = loadDeploymentResources(env);
  const envDlq = turns ? resources.turnsDlqUrl : resources.eventsDlqUrl;
  if (envDlq) {
    return {
      sqs: deployedSqs(),
      dlqUrl: envDlq,
      ...withTarget(options.targetUrl ?? (turns ? resources.turnsQueueUrl : resources.eventsQueueUrl)),
      via: 'environment',
    };
  }
  const found = await findRunningDev({ ...explicitDevHome(options.home, env), defaultHome: resolveHooksHome(env) });
  if ('why' in found) {
    throw new DlqTargetError(
      `${found.why}; pass --queue-url URL, --stack NAME or set ${turns ? RESOURCE_ENV.turnsDlqUrl : RESOURCE_ENV.eventsDlqUrl}`,
    );
  }
  const dev = found.endpoints;
  return {
    // The emulators' queue URLs name a host that does not resolve: the endpoint must be explicit.
    sqs: new SQSClient({ endpoint: dev.sqsEndpoint, region: dev.region, credentials: dev.credentials }),
    dlqUrl: turns ? dev.turnsDlqUrl : dev.eventsDlqUrl,
    ...withTarget(options.targetUrl ?? (turns ? dev.turnsQueueUrl : dev.eventsQueueUrl)),
    via: `hookgate dev (pid ${dev.pid})`,
  };
}

import { CloudFormationClient, DescribeStackResourcesCommand, type StackResource } from '@aws-sdk/client-cloudformation';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

/** The deployed resources hookgate's CLI works on, by the stack's construct ids. */
export interface StackResources {
  tableName?: string;
  eventsQueueUrl?: string;
  eventsDlqUrl?: string;
  turnsQueueUrl?: string;
  turnsDlqUrl?: string;
  timersQueueUrl?: string;
  timersDlqUrl?: string;
}

export class StackLookupError extends HookgateError {
  override readonly name = 'StackLookupError';
}

/**
 * CDK names top-level resources `<construct id><8 hex>`; for these types the physical id is
 * the table name or the queue URL.
 */
const WANTED: Record<keyof StackResources, { id: string; type: string }> = {
  tableName: { id: 'Table', type: 'AWS::DynamoDB::GlobalTable' },
  eventsQueueUrl: { id: 'Events', type: 'AWS::SQS::Queue' },
  eventsDlqUrl: { id: 'EventsDlq', type: 'AWS::SQS::Queue' },
  turnsQueueUrl: { id: 'Turns', type: 'AWS::SQS::Queue' },
  turnsDlqUrl: { id: 'TurnsDlq', type: 'AWS::SQS::Queue' },
  timersQueueUrl: { id: 'Timers', type: 'AWS::SQS::Queue' },
  timersDlqUrl: { id: 'TimersDlq', type: 'AWS::SQS::Queue' },
};

/**
 * Looks a deployed hookgate stack up with CloudFormation DescribeStackResources (standard
 * credential chain and region; `AWS_ENDPOINT_URL_CLOUDFORMATION` is honoured by the SDK).
 *
 * @example
 * const { tableName } = await describeHookgateStack('hookgate');
 */
export async function describeHookgateStack(stackName: string, client = new CloudFormationClient({})): Promise<StackResources> {
  let resources: StackResource[];
  try {
    ({ StackResources: resources = [] } = await client.send(new DescribeStackResourcesCommand({ StackName: stackName })));
  } catch (error) {
    throw new StackLookupError(`could not describe stack ${stackName}: ${errorText(error)}`);
  } finally {
    client.destroy();
  }
  return findHookgateResources(resources);
}

/**
 * Picks hookgate's resources out of a stack's resource list by their construct ids and types.
 *
 * @example
 * const { turnsDlqUrl } = findHookgateResources(StackResources ?? []);
 */
export function findHookgateResources(resources: readonly StackResource[]): StackResources {
  const found: StackResources = {};
  for (const [key, { id, type }] of Object.entries(WANTED) as [keyof StackResources, { id: string; type: string }][]) {
    const pattern = new RegExp(`^${id}[0-9A-F]{8}$`);
    const match = resources.find(
      (r) =>
        pattern.test(r.LogicalResourceId ?? '') &&
        (r.ResourceType === type || (key === 'tableName' && r.ResourceType === 'AWS::DynamoDB::Table')),
    );
    if (match?.PhysicalResourceId) found[key] = match.PhysicalResourceId;
  }
  return found;
}

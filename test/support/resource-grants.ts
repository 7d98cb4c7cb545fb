import type { S3Client } from '@aws-sdk/client-s3';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { RESOURCE_ACCESS, type BucketName, type QueueName, type ResourceAccess } from '../../infra/lib/resource-access.ts';
import type { FunctionName } from '../../infra/lib/table-access.ts';
import { currentFunction, refuse } from './function-identity.ts';
import { stringLike } from './table-grants.ts';

/*
 * The deployed functions' queue, topic and bucket permissions (infra/lib/resource-access.ts),
 * enforced in tests as table-grants.ts enforces the table's: a request made while
 * `asFunction(name, …)` runs is refused, as IAM would refuse it, unless `name`'s grants allow its
 * action on its resource. The resource is told by the emulators' names for the stack's queues,
 * topic and bucket; a queue, topic or bucket the stack does not have is refused too.
 */

/** Where the stack's resources are in the emulators (`LocalAws` or a deployment's resources). */
export interface StackResourceNames {
  readonly turnsQueueUrl?: string | undefined;
  readonly timersQueueUrl?: string | undefined;
  readonly eventsQueueUrl?: string | undefined;
  readonly turnsDlqUrl?: string | undefined;
  readonly timersDlqUrl?: string | undefined;
  readonly eventsDlqUrl?: string | undefined;
  readonly eventsTopicArn?: string | undefined;
  readonly payloadBucket?: string | undefined;
  readonly workspaceBucket?: string | undefined;
}

/** The clients to check: the data plane's (SNS and S3 as built). */
export interface CheckedClients {
  readonly sqs?: SQSClient | undefined;
  readonly sns?: SNSClient | undefined;
  readonly s3?: S3Client | undefined;
}

/** IAM's action for an SDK command: a batch is authorised as its single form. */
const SQS_ACTIONS: Record<string, string> = {
  SendMessage: 'SendMessage',
  SendMessageBatch: 'SendMessage',
  ReceiveMessage: 'ReceiveMessage',
  DeleteMessage: 'DeleteMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibility: 'ChangeMessageVisibility',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
  GetQueueAttributes: 'GetQueueAttributes',
};
const S3_ACTIONS: Record<string, string> = {
  PutObject: 'PutObject',
  GetObject: 'GetObject',
  HeadObject: 'GetObject',
  ListObjectsV2: 'ListBucket',
  DeleteObject: 'DeleteObject',
};

/**
 * Adds the check to each client (before its first request: the SQS and SNS clients cache their
 * middleware stacks).
 *
 * @example
 * enforceResourceGrants({ sqs: plane.clients.sqs, sns: await plane.clients.sns() }, aws);
 */
export function enforceResourceGrants(
  clients: CheckedClients,
  names: StackResourceNames,
  grants: Readonly<Record<FunctionName, ResourceAccess>> = RESOURCE_ACCESS,
  always?: FunctionName,
): void {
  const queueOf = (url: unknown): QueueName | undefined => {
    const byUrl: [QueueName, string | undefined][] = [
      ['turns', names.turnsQueueUrl],
      ['timers', names.timersQueueUrl],
      ['events', names.eventsQueueUrl],
      ['turnsDlq', names.turnsDlqUrl],
      ['timersDlq', names.timersDlqUrl],
      ['eventsDlq', names.eventsDlqUrl],
    ];
    return byUrl.find(([, known]) => known !== undefined && known === url)?.[0];
  };
  const bucketOf = (bucket: unknown): BucketName | undefined =>
    bucket === undefined
      ? undefined
      : bucket === names.payloadBucket
        ? 'payloads'
        : bucket === names.workspaceBucket
          ? 'workspaces'
          : undefined;

  if (clients.sqs)
    check(clients.sqs, 'sqs', always, (name, command, input) => {
      const action = SQS_ACTIONS[command];
      const queue = queueOf(input.QueueUrl);
      const access = grants[name];
      const allowed =
        queue !== undefined &&
        (action === 'SendMessage' || action === 'GetQueueAttributes'
          ? access.send.includes(queue)
          : action !== undefined && access.drain.includes(queue));
      return allowed ? undefined : `sqs:${action ?? command} on ${queue ?? String(input.QueueUrl)}`;
    });
  if (clients.sns)
    check(clients.sns, 'sns', always, (name, command, input) => {
      const action = command === 'Publish' || command === 'PublishBatch' ? 'Publish' : command;
      const topic =
        input.TopicArn === names.eventsTopicArn && names.eventsTopicArn !== undefined ? 'the events topic' : undefined;
      const allowed = action === 'Publish' && topic !== undefined && grants[name].publishEvents;
      return allowed ? undefined : `sns:${action} on ${topic ?? String(input.TopicArn)}`;
    });
  if (clients.s3)
    check(clients.s3, 's3', always, (name, command, input) => {
      const action = S3_ACTIONS[command];
      const bucket = bucketOf(input.Bucket);
      const access = grants[name];
      const key = typeof input.Key === 'string' ? input.Key : undefined;
      const allowed =
        bucket !== undefined &&
        (action === 'ListBucket'
          ? access.list.includes(bucket)
          : key !== undefined &&
            access.objects.some(
              (grant) =>
                grant.bucket === bucket &&
                (grant.actions as readonly string[]).includes(action ?? '') &&
                stringLike(grant.keys, key),
            ));
      return allowed
        ? undefined
        : `s3:${action ?? command} on ${key === undefined ? '' : `${key} in `}the ${bucket ?? String(input.Bucket)} bucket`;
    });
}

/** The check on one client: `denied` names what was asked when no grant allows it. */
function check(
  client: SQSClient | SNSClient | S3Client,
  service: string,
  always: FunctionName | undefined,
  denied: (name: FunctionName, command: string, input: Record<string, unknown>) => string | undefined,
): void {
  (client.middlewareStack as SQSClient['middlewareStack']).add(
    (next, context) => async (args) => {
      const name = always ?? currentFunction();
      if (name !== undefined) {
        const command = String(context.commandName ?? '').replace(/Command$/, '');
        const what = denied(name, command, args.input as Record<string, unknown>);
        if (what !== undefined) {
          const refusal = `the ${name} function may not ${what} (infra/lib/resource-access.ts)`;
          throw refuse(refusal, what.split(' ')[0]!, service === 's3' ? 'AccessDenied' : 'AccessDeniedException');
        }
      }
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'hookgateResourceGrantCheck' },
  );
}

/**
 * `enforceResourceGrants` on a data plane's clients. SNS and S3 are built now; their checks go
 * on in the first reaction to the loaders' promise, so before any caller's `await` of it sees the
 * client (the returned promise says when).
 *
 * @example
 * void enforcePlaneResourceGrants(plane.clients, aws);
 */
export function enforcePlaneResourceGrants(
  clients: { readonly sqs: SQSClient; readonly sns: () => Promise<SNSClient>; readonly s3: () => Promise<S3Client> },
  names: StackResourceNames,
  grants: Readonly<Record<FunctionName, ResourceAccess>> = RESOURCE_ACCESS,
  always?: FunctionName,
): Promise<void> {
  enforceResourceGrants({ sqs: clients.sqs }, names, grants, always);
  return Promise.all([
    clients.sns().then((sns) => enforceResourceGrants({ sqs: undefined, sns }, names, grants, always)),
    clients.s3().then((s3) => enforceResourceGrants({ sqs: undefined, s3 }, names, grants, always)),
  ]).then(() => {});
}

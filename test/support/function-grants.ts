import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { TABLE_ACCESS, type FunctionName } from '../../infra/lib/table-access.ts';
import type { DeploymentResources } from '../../src/config/deployment-config.ts';
import { enforcePlaneResourceGrants } from './resource-grants.ts';
import { enforceTableGrants } from './table-grants.ts';

/** The parts of a runtime the grant checks reach: its configuration's resources and its SDK clients. */
interface CheckableRuntime {
  readonly config: { readonly resources: DeploymentResources };
  readonly plane: {
    readonly clients: {
      readonly dynamodb: DynamoDBClient;
      readonly sqs: SQSClient;
      readonly sns: () => Promise<SNSClient>;
      readonly s3: () => Promise<S3Client>;
    };
    readonly idempotency: { readonly client: DynamoDBClient };
  };
}

/**
 * `runtime` as a deployed function `name` would run it: every request of its table, queue, topic
 * and bucket clients, the cold start's included, is checked against that function's grants
 * (table-grants.ts, resource-grants.ts). Resolves once the checks are in place (SNS and S3 are
 * built here, before their first request).
 *
 * @example
 * const handler = await createTurnFunction(await asDeployed('turn', createRuntime(config, inputs)));
 */
export async function asDeployed<T extends CheckableRuntime>(name: FunctionName, runtime: T): Promise<T> {
  const { clients } = runtime.plane;
  enforceTableGrants(clients.dynamodb, TABLE_ACCESS, name);
  // The observer's idempotency records go through a client of their own (data-plane.ts).
  if (name === 'observer') enforceTableGrants(runtime.plane.idempotency.client, TABLE_ACCESS, name);
  await enforcePlaneResourceGrants(clients, runtime.config.resources, undefined, name);
  return runtime;
}

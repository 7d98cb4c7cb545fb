import {
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  PutItemCommand,
  type AttributeValue,
  type BatchWriteItemCommandInput,
  type BatchWriteItemCommandOutput,
  type DynamoDBClient,
  type PutItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { getEndpointFromInstructions } from '@smithy/core/endpoints';
import type { HttpRequest, HttpResponse } from '@smithy/types';
import { z } from 'zod';

/** Where requests go and what signs them, resolved once from the client's own configuration. */
interface Target {
  url: URL;
  signer: { sign(request: HttpRequest, options: { signingDate: Date }): Promise<HttpRequest> };
}

/** A service answer as read off the wire. */
interface Reply {
  status: number;
  body: unknown;
  requestId: string | undefined;
}

/** The parts of a DynamoDB JSON error body read here. */
const ErrorBody = z.object({
  __type: z.string(),
  message: z.string().optional(),
  Message: z.string().optional(),
  Item: z.record(z.string(), z.unknown()).optional(),
});

/** The part of a BatchWriteItem answer read here. */
const BatchWriteBody = z.object({ UnprocessedItems: z.record(z.string(), z.array(z.unknown())).optional() });

/**
 * The observer consumer's two per-event DynamoDB writes (PutItem, BatchWriteItem) through a
 * client's own pieces — its endpoint rules, credentials, SigV4 signer and HTTP handler — as
 * one signed request each, without the SDK's per-request middleware stack.
 *
 * Why: that stack (a retry token, endpoint and serde steps that each copy the ~50-key
 * config, a new signer, a user-agent string) costs ~250-450 µs of CPU per request here
 * against ~150-230 µs for the signed exchange itself, and the consumer sends one PutItem per
 * event: the stack was most of its CPU (figures in docs/data-plane.md §6).
 *
 * Only the answers the caller acts on are read here: success, and for PutItem
 * `ConditionalCheckFailedException` (thrown as the SDK's own class, with `Item` when the
 * service returns it). Anything else — throttling, a 5xx, a validation error, a broken
 * connection, a credentials failure — sends the same input again through `client.send`, so
 * retries, clock-skew correction and error types are the SDK's. A conditional write that
 * reached the table before its answer was lost is then refused by its own condition, as on
 * an SDK retry; a batch of puts and deletes is idempotent. The body is the input as JSON,
 * which is the wire form of every attribute type but binary (`B`, `BS`: the SDK
 * base64-encodes them); an item with binary values is refused by the service here and then
 * sent by the SDK.
 *
 * @example
 * const direct = new DirectDynamoDB(new DynamoDBClient({}));
 * await direct.putItem({ TableName, Item, ConditionExpression: 'attribute_not_exists(PK)' });
 */
export class DirectDynamoDB {
  private target: Promise<Target> | undefined;

  constructor(private readonly client: DynamoDBClient) {}

  /** PutItem; a failed condition throws `ConditionalCheckFailedException`. */
  async putItem(input: PutItemCommandInput): Promise<void> {
    const reply = await this.exchange('PutItem', input).catch(() => undefined);
    if (reply?.status === 200) return;
    const failed = reply?.status === 400 ? conditionFailed(reply) : undefined;
    if (failed) throw failed;
    await this.client.send(new PutItemCommand(input));
  }

  /** BatchWriteItem; resolves with the service's `UnprocessedItems` (to be sent again by the caller). */
  async batchWriteItem(input: BatchWriteItemCommandInput): Promise<BatchWriteItemCommandOutput['UnprocessedItems']> {
    const reply = await this.exchange('BatchWriteItem', input).catch(() => undefined);
    const answer = reply?.status === 200 ? BatchWriteBody.safeParse(reply.body) : undefined;
    if (answer?.success) return answer.data.UnprocessedItems as BatchWriteItemCommandOutput['UnprocessedItems'];
    return (await this.client.send(new BatchWriteItemCommand(input))).UnprocessedItems;
  }

  /** The URL requests go to (resolved by the SDK's endpoint rules, as `client.send` would). */
  async endpoint(): Promise<URL> {
    return (await this.resolveTarget()).url;
  }

  private async exchange(operation: 'PutItem' | 'BatchWriteItem', input: object): Promise<Reply> {
    const { url, signer } = await this.resolveTarget();
    const config = this.client.config;
    // Encoded once: the signer hashes these bytes and the handler writes them.
    const body = Buffer.from(JSON.stringify(input), 'utf8');
    const request = await signer.sign(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: {},
        headers: {
          host: url.host,
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDB_20120810.${operation}`,
          'content-length': String(body.length),
        },
        body,
      },
      { signingDate: new Date(Date.now() + config.systemClockOffset) },
    );
    const { response } = (await config.requestHandler.handle(request as never)) as { response: HttpResponse };
    const text = config.utf8Encoder(await config.streamCollector(response.body));
    const requestId = response.headers['x-amzn-requestid'];
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, requestId: typeof requestId === 'string' ? requestId : undefined };
  }

  private resolveTarget(): Promise<Target> {
    this.target ??= (async () => {
      const config = this.client.config;
      // The operation only picks the endpoint parameters; PutItem and BatchWriteItem share them,
      // and a table name (not an ARN) adds none.
      const endpoint = await getEndpointFromInstructions({}, PutItemCommand, config);
      const scheme = (endpoint.properties?.authSchemes as { signingName?: string; signingRegion?: string }[] | undefined)?.[0];
      const signer = await config.signer({
        name: 'sigv4',
        signingName: scheme?.signingName ?? 'dynamodb',
        signingRegion: scheme?.signingRegion ?? (await config.region()),
        properties: {},
      });
      return { url: new URL(endpoint.url.href), signer: signer as unknown as Target['signer'] };
    })();
    // A failed resolution (e.g. no region) is not cached: the next request tries again.
    this.target.catch(() => (this.target = undefined));
    return this.target;
  }
}

/** The SDK's exception for a 400 that is a failed condition, else undefined. */
function conditionFailed(reply: Reply): ConditionalCheckFailedException | undefined {
  const error = ErrorBody.safeParse(reply.body);
  // `__type` is `namespace#Name` (or a bare `Name`), as the SDK reads it.
  if (!error.success || error.data.__type.split('#').pop()!.split(':')[0] !== 'ConditionalCheckFailedException') return undefined;
  return new ConditionalCheckFailedException({
    message: error.data.message ?? error.data.Message ?? 'The conditional request failed',
    $metadata: { httpStatusCode: 400, requestId: reply.requestId, attempts: 1, totalRetryDelay: 0 },
    ...(error.data.Item ? { Item: error.data.Item as Record<string, AttributeValue> } : {}),
  });
}

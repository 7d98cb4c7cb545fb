import {
  ConditionalCheckFailedException,
  PutItemCommand,
  type AttributeValue,
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

/** What the direct path understood of an answer: success, a failed condition, or "ask the SDK". */
type Answer = { ok: true } | { ok: false; conditionFailed?: ConditionalCheckFailedException };

/** The parts of a DynamoDB JSON error body the direct path reads. */
const ErrorBody = z.object({
  __type: z.string(),
  message: z.string().optional(),
  Message: z.string().optional(),
  Item: z.record(z.string(), z.unknown()).optional(),
});

/**
 * PutItem through a DynamoDB client's own pieces — its endpoint rules, credentials, SigV4
 * signer and HTTP handler — as one signed request, without the per-request middleware stack.
 *
 * Why: the observer consumer sends one conditional PutItem (the idempotency lock) per event,
 * and the stack (retry token, endpoint and serde steps that each copy the ~50-key config,
 * a new signer, a user-agent string) costs ~250-450 µs of CPU per request here against
 * ~150-230 µs for the signed exchange itself: most of the consumer's CPU per event.
 *
 * Only the two answers the caller acts on are read here: success, and
 * `ConditionalCheckFailedException` (thrown as the SDK's own class, with `Item` when the
 * service returns it). Anything else — throttling, a 5xx, a validation error, a broken
 * connection, a credentials failure — sends the same input again through `client.send`, so
 * retries, clock-skew correction and error types are the SDK's. A write that reached the
 * table before its answer was lost is then refused by its own condition, as it would be on
 * an SDK retry. The body is the input as JSON, which is the wire form of every attribute
 * type but binary (`B`, `BS`: the SDK base64-encodes them); an item with binary values is
 * refused by the service here and then sent by the SDK.
 *
 * @example
 * const put = new DirectPutItem(new DynamoDBClient({}));
 * await put.send({ TableName, Item, ConditionExpression: 'attribute_not_exists(PK)' });
 */
export class DirectPutItem {
  private target: Promise<Target> | undefined;

  constructor(private readonly client: DynamoDBClient) {}

  async send(input: PutItemCommandInput): Promise<void> {
    const answer = await this.exchange(input).catch((): Answer => ({ ok: false }));
    if (answer.ok) return;
    if (answer.conditionFailed) throw answer.conditionFailed;
    await this.client.send(new PutItemCommand(input));
  }

  /** The URL requests go to (resolved by the SDK's endpoint rules, as `client.send` would). */
  async endpoint(): Promise<URL> {
    return (await this.resolveTarget()).url;
  }

  private async exchange(input: PutItemCommandInput): Promise<Answer> {
    const { url, signer } = await this.resolveTarget();
    const config = this.client.config;
    const body = JSON.stringify(input);
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
          'x-amz-target': 'DynamoDB_20120810.PutItem',
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      },
      { signingDate: new Date(Date.now() + config.systemClockOffset) },
    );
    const { response } = (await config.requestHandler.handle(request as never)) as { response: HttpResponse };
    const text = Buffer.from(await config.streamCollector(response.body)).toString('utf8');
    if (response.statusCode === 200) return { ok: true };
    if (response.statusCode !== 400) return { ok: false };
    const error = ErrorBody.safeParse(text ? JSON.parse(text) : undefined);
    if (!error.success || !error.data.__type.endsWith('ConditionalCheckFailedException')) return { ok: false };
    return {
      ok: false,
      conditionFailed: new ConditionalCheckFailedException({
        message: error.data.message ?? error.data.Message ?? 'The conditional request failed',
        $metadata: {
          httpStatusCode: 400,
          requestId: header(response, 'x-amzn-requestid'),
          attempts: 1,
          totalRetryDelay: 0,
        },
        ...(error.data.Item ? { Item: error.data.Item as Record<string, AttributeValue> } : {}),
      }),
    };
  }

  private resolveTarget(): Promise<Target> {
    this.target ??= (async () => {
      const config = this.client.config;
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
    // A failed resolution (e.g. no region) is not cached: the next send tries again.
    this.target.catch(() => (this.target = undefined));
    return this.target;
  }
}

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
}

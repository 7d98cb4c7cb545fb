import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConditionalCheckFailedException, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { DirectDynamoDB } from '../../src/pipeline/direct-dynamodb.ts';
import { startTestAws } from '../support/local-aws.ts';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token' };

/** A DynamoDB client that counts the requests which went through the SDK's own middleware stack. */
function countingClient(config: ConstructorParameters<typeof DynamoDBClient>[0]) {
  const client = new DynamoDBClient({ ...config, cacheMiddleware: true });
  const counter = { sdkSends: 0 };
  client.middlewareStack.add(
    (next) => async (args) => {
      counter.sdkSends++;
      return next(args);
    },
    { step: 'initialize', name: 'countSdkSends' },
  );
  return { client, counter };
}

describe('DirectDynamoDB against the emulator', () => {
  let aws: RunningEmulators;
  let client: DynamoDBClient;
  let counter: { sdkSends: number };
  let direct: DirectDynamoDB;
  const key = (id: string) => ({ PK: { S: `direct#${id}` }, SK: { S: 'item' } });

  beforeAll(async () => {
    aws = await startTestAws();
    ({ client, counter } = countingClient({ region: aws.region, credentials: aws.credentials, endpoint: aws.dynamodbEndpoint, maxAttempts: 1 }));
    direct = new DirectDynamoDB(client);
  });
  afterEach(() => void (counter.sdkSends = 0));
  afterAll(async () => {
    client?.destroy();
    await aws?.stop();
  });

  it('writes the item with one direct request, not through the SDK stack', async () => {
    await direct.putItem({ TableName: aws.tableName, Item: { ...key('a'), n: { N: '42' }, s: { S: 'ünïcode ✓' } } });
    expect(counter.sdkSends).toBe(0);
    const { Item } = await client.send(new GetItemCommand({ TableName: aws.tableName, Key: key('a') }));
    expect(Item).toEqual({ ...key('a'), n: { N: '42' }, s: { S: 'ünïcode ✓' } });
  });

  it('throws the SDK ConditionalCheckFailedException on a failed condition, without a second request', async () => {
    await direct.putItem({ TableName: aws.tableName, Item: { ...key('b'), v: { N: '1' } } });
    const attempt = direct.putItem({
      TableName: aws.tableName,
      Item: { ...key('b'), v: { N: '2' } },
      ConditionExpression: 'attribute_not_exists(#k)',
      ExpressionAttributeNames: { '#k': 'PK' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConditionalCheckFailedException);
    expect((error as ConditionalCheckFailedException).$metadata.httpStatusCode).toBe(400);
    // DynamoDB (and DynamoDB Local, the CI fidelity run) hand back the old item; dynalite ignores the option.
    const old = (error as ConditionalCheckFailedException).Item;
    if (process.env.HOOKGATE_TEST_DYNAMODB_ENDPOINT) expect(old).toEqual({ ...key('b'), v: { N: '1' } });
    else expect(old).toBeUndefined();
    expect(counter.sdkSends).toBe(0);
    const { Item } = await client.send(new GetItemCommand({ TableName: aws.tableName, Key: key('b') }));
    expect(Item?.v).toEqual({ N: '1' });
  });

  it('honours a legacy Expected condition the same way', async () => {
    await direct.putItem({ TableName: aws.tableName, Item: key('c'), Expected: { PK: { Exists: false } } });
    await expect(direct.putItem({ TableName: aws.tableName, Item: key('c'), Expected: { PK: { Exists: false } } })).rejects.toBeInstanceOf(
      ConditionalCheckFailedException,
    );
    expect(counter.sdkSends).toBe(0);
  });

  it('writes and deletes a batch with one direct request', async () => {
    await direct.putItem({ TableName: aws.tableName, Item: key('gone') });
    const unprocessed = await direct.batchWriteItem({
      RequestItems: {
        [aws.tableName]: [
          { PutRequest: { Item: { ...key('e1'), status: { S: 'COMPLETED' }, data: { M: { ran: { BOOL: true } } } } } },
          { PutRequest: { Item: { ...key('e2'), status: { S: 'COMPLETED' } } } },
          { DeleteRequest: { Key: key('gone') } },
        ],
      },
    });
    expect(unprocessed ?? {}).toEqual({});
    expect(counter.sdkSends).toBe(0);
    const read = async (id: string) => (await client.send(new GetItemCommand({ TableName: aws.tableName, Key: key(id) }))).Item;
    expect(await read('e1')).toEqual({ ...key('e1'), status: { S: 'COMPLETED' }, data: { M: { ran: { BOOL: true } } } });
    expect((await read('e2'))?.status).toEqual({ S: 'COMPLETED' });
    expect(await read('gone')).toBeUndefined();
  });

  it('hands a refused batch to the SDK, whose error the caller gets', async () => {
    const error = await direct
      .batchWriteItem({ RequestItems: { [aws.tableName]: [{ PutRequest: { Item: { PK: { S: 'direct#no-sort-key' } } } }] } })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('ValidationException');
    expect(counter.sdkSends).toBe(1);
  });

  it('hands any other answer to the SDK, whose error the caller gets', async () => {
    // No sort key: the service refuses the item with a ValidationException.
    const error = await direct.putItem({ TableName: aws.tableName, Item: { PK: { S: 'direct#d' } } }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ValidationException');
    expect(counter.sdkSends).toBe(1);
  });
});

describe('DirectDynamoDB on the wire', () => {
  let server: Server;
  let endpoint: string;
  const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
  let answers: { status: number; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = answers.shift() ?? { status: 200, body: '{}' };
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `req-${seen.length}` });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    seen.length = 0;
    answers = [];
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends a SigV4-signed PutItem that the same credentials verify, with the session token', async () => {
    const { client } = countingClient({ region: 'eu-west-1', credentials, endpoint });
    const input = { TableName: 't', Item: { PK: { S: 'k' }, SK: { S: 's' } } };
    await new DirectDynamoDB(client).putItem(input);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.headers['x-amz-target']).toBe('DynamoDB_20120810.PutItem');
    expect(request!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(request!.headers['x-amz-security-token']).toBe('session-token');
    expect(JSON.parse(request!.body)).toEqual(input);
    const authorization = String(request!.headers.authorization);
    const date = String(request!.headers['x-amz-date']);
    expect(authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/${date.slice(0, 8)}/eu-west-1/dynamodb/aws4_request, SignedHeaders=[a-z0-9;-]*host;[a-z0-9;-]*x-amz-target, Signature=[0-9a-f]{64}$`),
    );

    // Sign what the server received again, independently: the signature must match.
    const signer = await client.config.signer({ name: 'sigv4', signingName: 'dynamodb', signingRegion: 'eu-west-1', properties: {} });
    const url = new URL(endpoint);
    const headers = Object.fromEntries(
      Object.entries(request!.headers).filter(([name]) => name !== 'authorization' && name !== 'connection').map(([k, v]) => [k, String(v)]),
    );
    const again = await signer.sign(
      { method: 'POST', protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: '/', query: {}, headers, body: request!.body } as never,
      { signingDate: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13)}`) },
    );
    expect((again as { headers: Record<string, string> }).headers.authorization).toBe(authorization);
    client.destroy();
  });

  it('sends again through the SDK after a 5xx, and succeeds when the SDK does', async () => {
    const { client, counter } = countingClient({ region: 'eu-west-1', credentials, endpoint });
    answers = [{ status: 500, body: '{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"boom"}' }];
    await new DirectDynamoDB(client).putItem({ TableName: 't', Item: { PK: { S: 'k' }, SK: { S: 's' } } });
    expect(seen).toHaveLength(2);
    expect(counter.sdkSends).toBe(1);
    expect(seen[0]!.headers['amz-sdk-invocation-id']).toBeUndefined();
    expect(seen[1]!.headers['amz-sdk-invocation-id']).toBeDefined();
    expect(seen[1]!.body).toBe(seen[0]!.body);
    client.destroy();
  });

  it('reads ConditionalCheckFailedException with the old item from a DynamoDB-shaped answer', async () => {
    const { client, counter } = countingClient({ region: 'eu-west-1', credentials, endpoint });
    answers = [
      {
        status: 400,
        body: JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
          message: 'The conditional request failed',
          Item: { PK: { S: 'k' }, status: { S: 'COMPLETED' } },
        }),
      },
    ];
    const error = (await new DirectDynamoDB(client).putItem({ TableName: 't', Item: { PK: { S: 'k' } } }).catch((e: unknown) => e)) as ConditionalCheckFailedException;
    expect(error).toBeInstanceOf(ConditionalCheckFailedException);
    expect(error.message).toBe('The conditional request failed');
    expect(error.Item).toEqual({ PK: { S: 'k' }, status: { S: 'COMPLETED' } });
    expect(error.$metadata.requestId).toBe('req-1');
    expect(counter.sdkSends).toBe(0);
    client.destroy();
  });

  it('returns the UnprocessedItems of a BatchWriteItem answer, and sends an answer it cannot read through the SDK', async () => {
    const { client, counter } = countingClient({ region: 'eu-west-1', credentials, endpoint });
    const direct = new DirectDynamoDB(client);
    const unprocessed = { t: [{ PutRequest: { Item: { PK: { S: 'k' } } } }] };
    answers = [{ status: 200, body: JSON.stringify({ UnprocessedItems: unprocessed }) }];
    const input = { RequestItems: { t: [{ PutRequest: { Item: { PK: { S: 'k' } } } }, { DeleteRequest: { Key: { PK: { S: 'j' } } } }] } };
    expect(await direct.batchWriteItem(input)).toEqual(unprocessed);
    expect(seen[0]!.headers['x-amz-target']).toBe('DynamoDB_20120810.BatchWriteItem');
    expect(JSON.parse(seen[0]!.body)).toEqual(input);
    expect(counter.sdkSends).toBe(0);

    answers = [{ status: 200, body: '{"UnprocessedItems": 5}' }, { status: 200, body: '{"UnprocessedItems":{}}' }];
    expect(await direct.batchWriteItem(input)).toEqual({});
    expect(counter.sdkSends).toBe(1);
    expect(seen).toHaveLength(3);
    client.destroy();
  });

  it('hands a connection failure to the SDK, whose error the caller gets', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, counter } = countingClient({ region: 'eu-west-1', credentials, endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1 });
    const error = (await new DirectDynamoDB(client).putItem({ TableName: 't', Item: { PK: { S: 'k' } } }).catch((e: unknown) => e)) as Error;
    expect(String((error as { code?: string }).code ?? error.message)).toContain('ECONNREFUSED');
    expect(counter.sdkSends).toBe(1);
    client.destroy();
  });
});

describe('DirectDynamoDB endpoint', () => {
  it('follows the SDK endpoint rules: regional, and account-based when the credentials name the account', async () => {
    const regional = new DynamoDBClient({ region: 'eu-west-1', credentials });
    expect((await new DirectDynamoDB(regional).endpoint()).href).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
    const account = new DynamoDBClient({ region: 'eu-west-1', credentials: { ...credentials, accountId: '123456789012' } });
    expect((await new DirectDynamoDB(account).endpoint()).href).toBe('https://123456789012.ddb.eu-west-1.amazonaws.com/');
    regional.destroy();
    account.destroy();
  });
});

import { queryObjects } from 'node:v8';
import { AbstractIterator, AbstractKeyIterator, AbstractValueIterator } from 'abstract-level';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/local/emulators.ts';

/**
 * dynalite 4.0.0 wraps each LevelDB iterator in a stream whose `destroy` called `iterator.return()`,
 * which abstract-level 3's iterators do not have: no query's iterator was ever closed. Each stayed
 * in the store's set of open resources and pinned a LevelDB snapshot, so `hookgate dev` grew by
 * about 0.2 MB a turn (3.9 GB after 16,000 turns). patches/dynalite+4.0.0.patch closes them;
 * `npm install` applies it (the `postinstall` script). Counted with `v8.queryObjects`, which
 * collects garbage first: what is left is what something still holds.
 */
const liveIterators = () =>
  [AbstractIterator, AbstractKeyIterator, AbstractValueIterator].reduce(
    (sum, type) => sum + queryObjects(type, { format: 'count' }),
    0,
  );

describe('dynalite (as hookgate dev runs it)', () => {
  let aws: RunningEmulators;
  let doc: DynamoDBDocumentClient;

  beforeAll(async () => {
    aws = await startEmulators();
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: aws.region, credentials: aws.credentials, endpoint: aws.dynamodbEndpoint }),
    );
    for (let seq = 1; seq <= 12; seq++) {
      await doc.send(new PutCommand({ TableName: aws.tableName, Item: { PK: 'SESSION#s', SK: `MSG#${seq}`, seq } }));
    }
  });
  afterAll(async () => {
    doc.destroy();
    await aws.stop();
  });

  it('closes every iterator a query, a scan or a table listing opens, whether it read its range to the end or not', async () => {
    const before = liveIterators();
    const query = (limit?: number) =>
      doc.send(
        new QueryCommand({
          TableName: aws.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': 'SESSION#s' },
          ScanIndexForward: false,
          ...(limit ? { Limit: limit } : {}),
        }),
      );
    for (let i = 0; i < 40; i++) {
      // A window of the newest messages (a turn's history read) stops before the range ends.
      expect((await query(3)).Items).toHaveLength(3);
      expect((await query()).Items).toHaveLength(12);
      await doc.send(new ScanCommand({ TableName: aws.tableName, Limit: 5 }));
      await doc.send(new ListTablesCommand({}));
    }
    expect(liveIterators() - before).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDeliveryDedupStore } from '../../src/store/dynamo-delivery-dedup-store.ts';
import { withTable } from './with-table.ts';

describe('DynamoDeliveryDedupStore', () => {
  const { table } = withTable();

  it('lets exactly one of 20 concurrent writers claim a key', async () => {
    const stores = Array.from({ length: 20 }, () => new DynamoDeliveryDedupStore(table()));
    const results = await Promise.all(stores.map((s) => s.claim('telegram:race', 600)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('sets the TTL attribute and refuses a second claim within the window', async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await dedup.claim('slack:Ev1', 60, now)).toBe(true);
    expect(await dedup.claim('slack:Ev1', 60, new Date(now.getTime() + 59_000))).toBe(false);
    const { Item } = await table().doc.send(
      new GetCommand({ TableName: table().tableName, Key: { PK: 'DEDUP#slack:Ev1', SK: 'DEDUP' } }),
    );
    expect(Item?.expires_at).toBe(Math.floor(now.getTime() / 1000) + 60);
  });

  it('treats an expired claim as free without waiting for TTL deletion', async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await dedup.claim('wa:1', 10, now)).toBe(true);
    expect(await dedup.claim('wa:1', 10, new Date(now.getTime() + 11_000))).toBe(true);
  });

  it('release lets the platform retry be taken', async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    expect(await dedup.claim('discord:9', 600)).toBe(true);
    await dedup.release('discord:9');
    expect(await dedup.claim('discord:9', 600)).toBe(true);
    expect(await dedup.claim('discord:9', 600)).toBe(false);
  });
});

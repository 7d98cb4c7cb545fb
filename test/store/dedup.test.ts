import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDeliveryDedupStore } from '../../src/store/dynamo-delivery-dedup-store.ts';
import { lossyTable } from './lossy-table.ts';
import { withTable } from './with-table.ts';

describe('DynamoDeliveryDedupStore', () => {
  const { table, aws } = withTable();

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

  it('says when the standing claim was made, and nothing once it is released', async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await dedup.claimedAt('slack:when')).toBeUndefined();
    await dedup.claim('slack:when', 60, now);
    expect(await dedup.claimedAt('slack:when')).toEqual(now);
    await dedup.release('slack:when');
    expect(await dedup.claimedAt('slack:when')).toBeUndefined();
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

  it("records a handled delivery on its claim, whose window grows to the handled record's", async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await dedup.claim('telegram:77', 600, now)).toBe(true);
    expect(await dedup.wasHandled('telegram:77', now)).toBe(false);
    await dedup.markHandled('telegram:77', 86_400, new Date(now.getTime() + 5_000));
    expect(await dedup.wasHandled('telegram:77', new Date(now.getTime() + 6_000))).toBe(true);
    expect(await dedup.claim('telegram:77', 600, new Date(now.getTime() + 6_000))).toBe(false);
    const { Item } = await table().doc.send(
      new GetCommand({ TableName: table().tableName, Key: { PK: 'DEDUP#telegram:77', SK: 'DEDUP' } }),
    );
    expect(Item).toMatchObject({
      claimed_at: now.toISOString(),
      handled_at: '2026-01-01T00:00:05.000Z',
      expires_at: Math.floor(now.getTime() / 1000) + 5 + 86_400,
    });
    expect(await dedup.claim('telegram:77', 600, new Date(now.getTime() + 601_000))).toBe(false); // beyond the claim's own 600 s
    // Past the expiry, the record no longer counts (TTL deletion is not waited for).
    expect(await dedup.wasHandled('telegram:77', new Date(now.getTime() + 86_406_000))).toBe(false);
  });

  it("a claim stored but whose answer was lost, which the SDK then sent again, is still the sender's, not a duplicate", async () => {
    const { table: lossy, lost } = lossyTable(aws(), 'PutItem');
    try {
      expect(await new DynamoDeliveryDedupStore(lossy).claim('telegram:answer-lost', 600)).toBe(true);
      expect(lost()).toBe(1);
      // Anyone else's claim of it is still refused.
      expect(await new DynamoDeliveryDedupStore(table()).claim('telegram:answer-lost', 600)).toBe(false);
    } finally {
      lossy.doc.destroy();
    }
  });

  it('records a delivery nobody claimed (its own expiry), and an unknown one is not handled', async () => {
    const dedup = new DynamoDeliveryDedupStore(table());
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await dedup.wasHandled('local:never', now)).toBe(false);
    await dedup.markHandled('local:unclaimed', 60, now);
    expect(await dedup.wasHandled('local:unclaimed', new Date(now.getTime() + 59_000))).toBe(true);
    expect(await dedup.wasHandled('local:unclaimed', new Date(now.getTime() + 61_000))).toBe(false);
  });
});

/**
 * "Have I seen this platform delivery id": a conditional put with an expiry timestamp and
 * a TTL attribute. Correctness never depends on TTL deletion: expiry is checked from the
 * stored timestamp.
 */
export interface DeliveryDedupStore {
  /** True for the first claim of `key` within `ttlSeconds`; false for every other. */
  claim(key: string, ttlSeconds: number, now?: Date): Promise<boolean>;
  /** Undoes a claim whose work could not be made durable, so the platform's retry is taken. */
  release(key: string): Promise<void>;
  /** When the standing claim of `key` was made (undefined: there is none). */
  claimedAt(key: string): Promise<Date | undefined>;
}

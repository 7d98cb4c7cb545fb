/**
 * The deliveries this process settled lately (dispatched to the end: enqueued, answered as a
 * command, skipped or refused), so that a platform's retry of one is acknowledged at once
 * instead of being told to come back (`DeliveryInProgressError`). The dedup claim alone cannot
 * tell a settled delivery from one still in hand; the process that settled it can, at no
 * request's cost. A retry that lands on another instance, or after a restart, is told to come
 * back as before: nothing is lost either way. Bounded in time (`windowMs`, the claim's in-hand
 * window: older claims are duplicates anyway) and in size.
 *
 * @example
 * const settled = new SettledDeliveries(55_000);
 * settled.add('slack:C1:1.2', Date.now());
 * settled.has('slack:C1:1.2', Date.now()); // true
 */
export class SettledDeliveries {
  /** Delivery id → when it settled (ms), oldest first. */
  readonly #at = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  add(deliveryId: string, nowMs: number): void {
    this.#at.delete(deliveryId);
    this.#at.set(deliveryId, nowMs);
    for (const [id, at] of this.#at) {
      if (this.#at.size <= this.maxEntries && nowMs - at < this.windowMs) break;
      this.#at.delete(id);
    }
  }

  has(deliveryId: string, nowMs: number): boolean {
    const at = this.#at.get(deliveryId);
    return at !== undefined && nowMs - at < this.windowMs;
  }
}

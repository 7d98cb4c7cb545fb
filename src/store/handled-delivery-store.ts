/**
 * Which turn messages have been handled. SQS delivers at least once: a turn message can come
 * back after its turn finished (a delete lost in a network outage, an invocation that ended
 * after replying but before the batch was acknowledged). The turn runtime records each
 * handled delivery and skips a message whose delivery is already recorded, so the user gets
 * one reply. No lock is taken while a turn runs: the FIFO turns queue never hands out a
 * message again before its visibility timeout (6 × the function's timeout), so a message is
 * never run twice at the same time, and a turn that died mid-way runs again as it should.
 */
export interface HandledDeliveryStore {
  /** True once `markHandled(deliveryId)` was recorded and has not expired. */
  wasHandled(deliveryId: string, now?: Date): Promise<boolean>;
  /** Records that the turn of this delivery ended (replied, suspended for an approval, or ignored). */
  markHandled(deliveryId: string, ttlSeconds: number, now?: Date): Promise<void>;
}

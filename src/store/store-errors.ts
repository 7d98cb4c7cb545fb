import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * The table did not take a write after its retries (unprocessed batch items, throttling):
 * the caller's message is retried by its queue.
 *
 * @example
 * if (attempt > 8) throw new StoreWriteError(`transcript: ${n} items still unprocessed after retries`);
 */
export class StoreWriteError extends HookgateError {
  override readonly name = 'StoreWriteError';
}

/** A conditional session write kept losing to concurrent ones, or its item vanished mid-rotation. */
export class SessionConflictError extends HookgateError {
  override readonly name = 'SessionConflictError';
}

/**
 * What the table holds of a record is not all of it (a part of a suspended turn's state is
 * missing): resuming from it would run the turn on a truncated conversation.
 *
 * @example
 * if (parts.length !== expected) throw new StoreReadError(`approval ${id}: ${parts.length} of ${expected} parts`);
 */
export class StoreReadError extends HookgateError {
  override readonly name = 'StoreReadError';
}

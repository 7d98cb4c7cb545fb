import { HookgateError } from '../errors/hookgate-error.ts';

/** Some observer events could not be handed to the events topic, even after retries. */
export class ObserverPublishError extends HookgateError {
  override readonly name = 'ObserverPublishError';
  constructor(
    message: string,
    /** Ids of the events that were not published (the caller's retry may resend all). */
    readonly failedIds: readonly string[],
    options?: { cause?: unknown; permanent?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options?.permanent ?? false;
  }

  /** SNS refused the events as a sender fault: trying again later would not help (no outbox). */
  readonly permanent: boolean;
}

/** An observer event cannot be turned into an envelope (bad type, unserialisable payload). */
export class InvalidObserverEventError extends HookgateError {
  override readonly name = 'InvalidObserverEventError';
}

import { HookgateError } from '../../errors/hookgate-error.ts';

/** One failed model request attempt; `retryable` tells the caller whether to try again. */
export class ModelRequestError extends HookgateError {
  override readonly name = 'ModelRequestError';
  constructor(
    message: string,
    readonly details: {
      /** HTTP status, or null for transport failures and invalid bodies. */
      statusCode: number | null;
      retryable: boolean;
      /** A classification: `rate_limited`, `server_error`, `client_error`, `transport_error`, `invalid_response`. */
      reason: string;
      type: string;
    },
  ) {
    super(message);
  }
}

/** The model could not be reached after every retry; the turn ends with an error reply. */
export class ModelUnavailableError extends HookgateError {
  override readonly name = 'ModelUnavailableError';
}

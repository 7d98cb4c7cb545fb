import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * Why a webhook request is refused before any dispatch, one class per failure mode (each
 * knows its HTTP status). The message is safe to show the caller: no secrets, no stack.
 */
export abstract class WebhookError extends HookgateError {
  abstract readonly status: 400 | 401 | 403 | 404 | 413 | 415 | 503;
}

/** The request's signature, secret token or JWT does not verify (Discord wants 401). */
export class InvalidSignatureError extends WebhookError {
  override readonly name = 'InvalidSignatureError';
  readonly status = 401;
}

/** A handshake secret (WhatsApp's verify token) does not match. */
export class ForbiddenHandshakeError extends WebhookError {
  override readonly name = 'ForbiddenHandshakeError';
  readonly status = 403;
}

/** Signed correctly, but the body is not what the platform documents. */
export class MalformedPayloadError extends WebhookError {
  override readonly name = 'MalformedPayloadError';
  readonly status = 400;
}

/** The platform is not configured in this deployment. */
export class PlatformDisabledError extends WebhookError {
  override readonly name = 'PlatformDisabledError';
  readonly status = 404;
}

/** Verification needs something that is unreachable right now (Teams OpenID metadata): retry later. */
export class VerificationUnavailableError extends WebhookError {
  override readonly name = 'VerificationUnavailableError';
  readonly status = 503;
}

/**
 * A platform's retry of a delivery whose first try is still in hand (claimed moments ago, not yet
 * answered): retry later. Acknowledged now, the retry would be the platform's last word, and a
 * first try that then failed would lose the message.
 */
export class DeliveryInProgressError extends WebhookError {
  override readonly name = 'DeliveryInProgressError';
  readonly status = 503;
}

/** A field is longer than the gateway's stated limit for it (ids and names: 400). */
export class FieldTooLongError extends WebhookError {
  override readonly name = 'FieldTooLongError';
  readonly status = 400;
}

/** The message (or the whole body) is larger than the gateway accepts: 413, never retried. */
export class PayloadTooLargeError extends WebhookError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
}

/** The body is not of the media type the endpoint takes (`POST /webhooks/local`: `application/json` only). */
export class UnsupportedMediaTypeError extends WebhookError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly status = 415;
}

/** An unsigned endpoint called from another origin, or through a host name that is not loopback. */
export class ForeignOriginError extends WebhookError {
  override readonly name = 'ForeignOriginError';
  readonly status = 403;
}

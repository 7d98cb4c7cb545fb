import { HookgateError } from '../errors/hookgate-error.ts';

/** The attachment is larger than its kind's limit (said by the platform or found while reading). */
export class AttachmentTooLargeError extends HookgateError {
  override readonly name = 'AttachmentTooLargeError';
  constructor(
    /** Bytes, or at least this many when the download was cut at the limit. */
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the file is over ${limit} bytes`);
  }
}

/** The platform did not hand the bytes over (HTTP error, no answer, a malformed answer). */
export class AttachmentDownloadError extends HookgateError {
  override readonly name = 'AttachmentDownloadError';
}

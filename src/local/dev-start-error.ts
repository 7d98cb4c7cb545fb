import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * `hookgate dev` (or a piece it starts) cannot start: a port or state folder in use, an
 * emulator process that died before it was ready. The message names the fix.
 *
 * @example
 * throw new DevStartError(`port ${port} on 127.0.0.1 is in use; pass --port <another>`);
 */
export class DevStartError extends HookgateError {
  override readonly name = 'DevStartError';
}

/** The local SQS poller could not delete handled messages (they come back after their visibility timeout). */
export class PollerDeleteError extends HookgateError {
  override readonly name = 'PollerDeleteError';
}

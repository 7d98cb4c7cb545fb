import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../secrets/constant-time-equal.ts';
import { InvalidSignatureError } from '../webhook-errors.ts';

/** Slack rejects replays older than five minutes; so do we. */
export const SLACK_MAX_AGE_SECONDS = 300;

/**
 * Checks `X-Slack-Signature` = `v0=` + HMAC-SHA256(signing secret, `v0:{ts}:{raw body}`)
 * and that `X-Slack-Request-Timestamp` is within five minutes of now.
 *
 * @example
 * verifySlackSignature(headers, body, signingSecret); // throws InvalidSignatureError
 */
export function verifySlackSignature(headers: Headers, body: Uint8Array, signingSecret: string, now: number = Date.now()): void {
  const timestamp = headers.get('x-slack-request-timestamp') ?? '';
  const signature = headers.get('x-slack-signature') ?? '';
  if (!/^\d+$/.test(timestamp)) throw new InvalidSignatureError('slack: X-Slack-Request-Timestamp is missing');
  if (Math.abs(now / 1000 - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) {
    throw new InvalidSignatureError('slack: request timestamp is more than 5 minutes away');
  }
  const expected = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
  if (!constantTimeEqual(signature, expected)) throw new InvalidSignatureError('slack: X-Slack-Signature does not verify');
}

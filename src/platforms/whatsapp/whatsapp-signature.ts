import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../secrets/constant-time-equal.ts';
import { InvalidSignatureError } from '../webhook-errors.ts';

/**
 * Checks `X-Hub-Signature-256` = `sha256=` + HMAC-SHA256(app secret, raw body), in constant time.
 *
 * @example
 * verifyWhatsAppSignature(headers, body, appSecret); // throws InvalidSignatureError
 */
export function verifyWhatsAppSignature(headers: Headers, body: Uint8Array, appSecret: string): void {
  const signature = headers.get('x-hub-signature-256') ?? '';
  const expected = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
  if (!constantTimeEqual(signature.toLowerCase(), expected)) {
    throw new InvalidSignatureError('whatsapp: X-Hub-Signature-256 does not verify');
  }
}

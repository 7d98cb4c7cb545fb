import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in time independent of where they differ and of their lengths
 * (both are hashed to 32 bytes first).
 *
 * @example
 * constantTimeEqual(request.headers.get('x-telegram-bot-api-secret-token') ?? '', config.secretToken);
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

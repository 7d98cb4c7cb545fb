import { createHash } from 'node:crypto';

/** SQS FIFO group and dedup ids: ≤ 128 chars of ASCII letters, digits and punctuation. */
const VALID_FIFO_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The id as is when SQS accepts it, else a stable SHA-256 of it (the same input always
 * maps to the same group / dedup id, which is all FIFO needs).
 *
 * @example
 * fifoId('telegram:42:') // 'telegram:42:'
 */
export function fifoId(raw: string): string {
  return VALID_FIFO_ID.test(raw) ? raw : `h:${createHash('sha256').update(raw, 'utf8').digest('hex')}`;
}

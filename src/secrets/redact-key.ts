import { createHash } from 'node:crypto';
import { redactSecrets } from './redact-secrets.ts';

/**
 * A key that leaves the process (an event's id, session id or turn id) with a known secret or
 * a secret shape in it, replaced by a digest of itself: hidden like any redacted text, but still
 * one value per key — `***` for all of them would make distinct events duplicates and merge
 * sessions. A key with no secret in it is returned as it is.
 *
 * @example
 * redactKey('evt-1') // 'evt-1'
 * redactKey('sk-abcdefghijklmnopqrstuvwxyz0123') // 'redacted-<32 hex digits>'
 */
export function redactKey(value: string, env: NodeJS.ProcessEnv = process.env): string {
  if (redactSecrets(value, env) === value) return value;
  return `redacted-${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}

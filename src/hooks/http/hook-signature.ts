import { createHmac } from 'node:crypto';

/** The environment variable holding the key http hook requests are signed with. */
export const HTTP_HOOK_SECRET_VARIABLE = 'HOOKGATE_HTTP_HOOK_SECRET';

/**
 * The `X-Hookgate-Signature` value of one request (docs/reference/http-hooks.md):
 * `sha256=<hex HMAC-SHA256(key, "<timestamp>.<raw body>")>`, the timestamp being the
 * `X-Hookgate-Timestamp` header (unix seconds). Signing the timestamp with the body lets a
 * receiver refuse a replayed request.
 *
 * @example
 * hookSignature('k3y', '1767225600', '{"hook_event_name": "pre_tool_call"}') // 'sha256=9f…'
 */
export function hookSignature(key: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
}

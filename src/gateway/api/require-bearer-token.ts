import type { Context, MiddlewareHandler } from 'hono';
import { discardBody } from '../body-limit.ts';
import { constantTimeEqual } from '../../secrets/constant-time-equal.ts';

/** `Bearer` (any case), spaces, one token (RFC 6750 §2.1; any non-space characters are taken). */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The `/v1` check (architecture §4): `Authorization: Bearer <token>`, compared in constant
 * time. Every failure — no header, a header that is not a bearer credential, a wrong token,
 * or no token configured — is 401 with `WWW-Authenticate: Bearer realm="hookgate"` (and an
 * RFC 6750 `error` where one applies), so clients know to authenticate rather than fix
 * their body.
 *
 * @example
 * app.use('/v1/*', requireBearerToken(config.apiToken));
 */
export function requireBearerToken(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!token) return refuse(c, 'the /v1 API is disabled: HOOKGATE_API_TOKEN is not configured');
    const header = c.req.header('authorization');
    if (header === undefined || header.trim() === '') return refuse(c, 'Authorization: Bearer <HOOKGATE_API_TOKEN> is required');
    const match = BEARER.exec(header);
    if (!match) return refuse(c, 'Authorization must be Bearer <token>', 'invalid_request');
    if (!constantTimeEqual(match[1]!, token)) return refuse(c, 'invalid bearer token', 'invalid_token');
    return next();
  };
}

async function refuse(c: Context, message: string, error?: 'invalid_request' | 'invalid_token'): Promise<Response> {
  const challenge = `Bearer realm="hookgate"${error ? `, error="${error}"` : ''}`;
  // The body is not wanted, but read to its end so the connection can serve the next request.
  const keepAlive = await discardBody(c.req.raw);
  return c.json({ error: message }, 401, { 'www-authenticate': challenge, ...(keepAlive ? {} : { connection: 'close' }) });
}

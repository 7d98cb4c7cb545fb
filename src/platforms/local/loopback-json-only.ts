import type { InboundRequest } from '../platform-adapter.ts';
import { ForeignOriginError, UnsupportedMediaTypeError } from '../webhook-errors.ts';

/**
 * Whether a host name (as a URL parses it) is this machine: `localhost` (and `*.localhost`,
 * which browsers resolve to loopback themselves), 127.0.0.0/8, `::1` and the IPv4-mapped
 * form of a 127 address.
 *
 * @example
 * isLoopbackHostname('127.0.0.1'); // true
 * isLoopbackHostname('[::1]');     // true
 * isLoopbackHostname('evil.test'); // false
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (/^127(?:\.\d{1,3}){3}$/.test(name)) return true;
  return name === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name);
}

function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The unsigned local platform answers only this machine's own clients (`hookgate chat`, the
 * console, curl): a page on another origin must not be able to post a chat message (and so run
 * a command) through the user's browser.
 *
 * - `Host` must name a loopback address: a DNS-rebound name (`evil.test` resolving to
 *   127.0.0.1) is refused → 403;
 * - `Origin`, when present, must be a loopback `http(s)` origin (`null`, a file or a sandboxed
 *   frame, is refused) → 403;
 * - the body must be `application/json` → 415. Browsers send form and text bodies across
 *   origins without asking; a JSON one needs a CORS preflight, which this server never grants.
 *
 * @example
 * assertLoopbackJsonPost({ method: 'POST', url, headers: new Headers({ 'content-type': 'text/plain' }), body }); // throws 415
 */
export function assertLoopbackJsonPost(request: InboundRequest): void {
  assertLoopbackHost(request.headers, request.url);
  const origin = request.headers.get('origin');
  if (origin !== null) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !isLoopbackHostname(parsed.hostname)) {
      throw new ForeignOriginError(
        `the local platform refuses posts from another origin (Origin ${JSON.stringify(origin)}); post from this machine, without an Origin or from a loopback page`,
      );
    }
  }
  const type = request.headers.get('content-type');
  const media = type?.split(';')[0]?.trim().toLowerCase();
  if (media !== 'application/json') {
    throw new UnsupportedMediaTypeError(
      `the local platform takes content-type: application/json only (got ${type === null ? 'none' : JSON.stringify(type)}); e.g. curl -H 'content-type: application/json' -d '{"chat_id":"c1","user_id":"me","text":"hi"}'`,
    );
  }
}

/**
 * The `Host` check alone, for the local platform's reads (`GET /webhooks/local/messages`): a
 * page whose name was rebound to 127.0.0.1 is same-origin with its own name, so without the
 * check it could read a chat's replies. Throws `ForeignOriginError` (403).
 *
 * @example
 * assertLoopbackHost(new Headers({ host: 'evil.test:8787' }), new URL('http://evil.test:8787/')); // throws
 */
export function assertLoopbackHost(headers: Headers, url: URL): void {
  const host = headers.get('host') ?? url.host;
  const hostname = hostnameOf(host);
  if (hostname === undefined || !isLoopbackHostname(hostname)) {
    throw new ForeignOriginError(
      `the local platform answers loopback requests only; Host ${JSON.stringify(host)} is not 127.0.0.1, ::1 or localhost`,
    );
  }
}

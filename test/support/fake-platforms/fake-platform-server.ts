import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** One request a fake platform API received, as sent on the wire. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json?: unknown;
  /** The status the fake answered, or `dropped` when it cut the connection instead. */
  status?: number | 'dropped';
  /** When the whole request had arrived (`performance.now()` of this process). */
  at: number;
}

export interface FailureOptions {
  retryAfter?: number;
  retryAfterIn?: 'header' | 'telegram';
  body?: unknown;
  /** Let this many matching requests through first. */
  after?: number;
}

export interface FakePlatforms {
  url: string;
  requests: RecordedRequest[];
  /** The requests whose path starts with `prefix`. */
  received(prefix: string): RecordedRequest[];
  /**
   * Makes the next `count` requests to paths starting with `prefix` answer `status`, with
   * the platform's own rate-limit signals when asked: `retryAfter` (seconds) goes into the
   * `Retry-After` header (`header`, Slack and Discord) or Telegram's
   * `parameters.retry_after` (`telegram`); `body` replaces the default error body.
   */
  failNext(prefix: string, status: number, count?: number, options?: FailureOptions): void;
  /** The next `count` requests to paths starting with `prefix` are read, then the connection is cut with no answer. */
  dropNext(prefix: string, count?: number): void;
  /** Teams: a Bot Framework token signed by the fake's JWKS key. */
  teamsToken(
    claims: Record<string, unknown>,
    options?: { expiresIn?: string | number; issuer?: string; audience?: string },
  ): Promise<string>;
  teamsIssuer: string;
  /**
   * Answers `GET <pathAndQuery>` with `body` (a file's bytes, or JSON for an object), as the
   * platform's file and media endpoints do (Telegram `getFile` and `/file/bot…`, Slack
   * `url_private`, Discord's CDN, WhatsApp media, a Teams `contentUrl`).
   */
  serve(pathAndQuery: string, body: Uint8Array | object, contentType?: string): void;
  close(): Promise<void>;
}

/**
 * One HTTP server that speaks the wire format of every platform API the gateway calls:
 * Telegram `/bot<token>/sendMessage`, Slack `/chat.postMessage`, Discord
 * `/webhooks/<app>/<token>`, WhatsApp `/<phone id>/messages`, Teams token endpoint,
 * OpenID metadata + JWKS, and `/v3/conversations/...` (the Teams serviceUrl). It records
 * every request for the test to inspect.
 *
 * @example
 * const fake = await startFakePlatforms();
 * env.TELEGRAM_API_BASE_URL = `${fake.url}/telegram`;
 */
export async function startFakePlatforms(): Promise<FakePlatforms> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'fake-key', use: 'sig', alg: 'RS256' };
  const requests: RecordedRequest[] = [];
  const failures: { prefix: string; status: number; count: number; options: FailureOptions }[] = [];
  const drops: { prefix: string; count: number }[] = [];
  const served = new Map<string, { body: Uint8Array; type: string }>();
  let url = '';
  const teamsIssuer = 'https://api.botframework.com';

  const answered = new WeakMap<ServerResponse, RecordedRequest>();
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    const record = answered.get(res);
    if (record) record.status = status;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body, json, at: performance.now() };
      requests.push(record);
      answered.set(res, record);
      const drop = drops.find((d) => path.startsWith(d.prefix) && d.count > 0);
      if (drop) {
        drop.count--;
        record.status = 'dropped';
        req.socket.destroy();
        return;
      }
      const failure = failures.find((f) => path.startsWith(f.prefix) && f.count > 0);
      if (failure && (failure.options.after ?? 0) > 0) failure.options.after! -= 1;
      else if (failure) {
        failure.count--;
        const { retryAfter, retryAfterIn = 'header', body: errorBody } = failure.options;
        if (retryAfter !== undefined && retryAfterIn === 'header') res.setHeader('retry-after', String(retryAfter));
        const telegram = retryAfter !== undefined && retryAfterIn === 'telegram';
        return answer(
          res,
          failure.status,
          errorBody ??
            (telegram
              ? {
                  ok: false,
                  error_code: failure.status,
                  description: `Too Many Requests: retry after ${retryAfter}`,
                  parameters: { retry_after: retryAfter },
                }
              : { ok: false, error: 'injected failure' }),
        );
      }
      const file = req.method === 'GET' ? served.get(path) : undefined;
      if (file) {
        record.status = 200;
        res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) });
        return res.end(file.body);
      }
      if (path === '/teams/openid') return answer(res, 200, { issuer: teamsIssuer, jwks_uri: `${url}/teams/jwks` });
      if (path === '/teams/jwks') return answer(res, 200, { keys: [jwk] });
      if (path === '/teams/token')
        return answer(res, 200, { token_type: 'Bearer', expires_in: 3600, access_token: 'fake-bot-token' });
      if (path.startsWith('/telegram/')) return answer(res, 200, { ok: true, result: { message_id: requests.length } });
      if (path.startsWith('/slack/')) return answer(res, 200, { ok: true, ts: '1.2' });
      if (path.startsWith('/discord/')) return answer(res, 200, { id: String(requests.length) });
      if (path.startsWith('/whatsapp/'))
        return answer(res, 200, { messaging_product: 'whatsapp', messages: [{ id: 'wamid.out' }] });
      if (path.includes('/v3/conversations/')) return answer(res, 200, { id: 'reply-1' });
      return answer(res, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    teamsIssuer,
    received: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    failNext(prefix, status, count = 1, options = {}) {
      failures.push({ prefix, status, count, options: { ...options } });
    },
    serve(pathAndQuery, body, contentType) {
      const bytes = body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
      served.set(pathAndQuery, {
        body: bytes,
        type: contentType ?? (body instanceof Uint8Array ? 'application/octet-stream' : 'application/json'),
      });
    },
    dropNext(prefix, count = 1) {
      drops.push({ prefix, count });
    },
    async teamsToken(claims, options = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'fake-key' })
        .setIssuer(options.issuer ?? teamsIssuer)
        .setAudience(options.audience ?? 'teams-app-id')
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

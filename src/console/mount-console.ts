import type { Context, Hono, MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as z from '../validation/zod.ts';
import { isHookName } from '../hooks/catalogue.ts';
import { createMemoryLogger } from '../hooks/hook-logger.ts';
import { approvalFor } from '../hooks/shell/consent/consent.ts';
import { createFileAllowlistStore } from '../hooks/shell/consent/file-allowlist-store.ts';
import { requireBearerToken } from '../gateway/api/require-bearer-token.ts';
import { bodyLimit } from '../gateway/body-limit.ts';
import type { Replier } from '../messaging/replier.ts';
import { UNDELIVERED_REPLY_ID } from '../store/undelivered-reply-store.ts';
import { CONSOLE_DLQ_NAMES, type ConsoleData } from './console-data.ts';
import type { ConsoleEvent, ConsoleHub } from './console-hub.ts';
import { consolePage } from './console-page.ts';
import { CONSOLE_SCRIPT } from './console-script.ts';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const HookRef = z.object({ event: z.string().check(z.minLength(1)), command: z.string().check(z.minLength(1)) });
const ReplayRequest = z.object({ queue: z.enum(CONSOLE_DLQ_NAMES), id: z.optional(z.string().check(z.minLength(1))) });
const RetryRequest = z.object({ id: z.string().check(z.regex(UNDELIVERED_REPLY_ID)) });
const TURN_ID = /^[A-Za-z0-9_:.-]{1,200}$/;
const TurnListQuery = z.object({
  chat: z.optional(z.string().check(z.maxLength(200))),
  user: z.optional(z.string().check(z.maxLength(200))),
  hook: z.optional(z.string().check(z.maxLength(200))),
  decision: z.optional(z.string().check(z.maxLength(100))),
  error: z.optional(z.enum(['1', 'true'])),
  text: z.optional(z.string().check(z.maxLength(500))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(500)), 50),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
});
const MAX_QUEUED_EVENTS = 1000;

interface CommonOptions {
  data: ConsoleData;
  /** The hooks home (dev: its shell-hook allowlist is what approve / revoke write). */
  home: string;
  /** Sends an undelivered reply again (`POST /console/api/undelivered/retry`): the gateway's replier. */
  replier: Replier;
}

/** `hookgate dev`: loopback Host and the console header; live chat and events through the hub. */
export interface DevConsoleOptions extends CommonOptions {
  mode: 'dev';
  hub: ConsoleHub;
  /** Shown in the header: where state is kept. */
  state?: string;
}

/** The deployed gateway: every API call needs the `/v1` bearer token; no live parts, read-only consent. */
export interface AwsConsoleOptions extends CommonOptions {
  mode: 'aws';
  token: string;
}

export type ConsoleOptions = DevConsoleOptions | AwsConsoleOptions;

/** Largest console API body (a replay or retry request is a few dozen bytes). */
const MAX_CONSOLE_BODY_BYTES = 16 * 1024;

/** The dev console's guard: loopback Host names only (DNS rebinding), mutations only with the console header (cross-site forms). */
const loopbackOnly: MiddlewareHandler = async (c, next) => {
  const host = new URL(c.req.url).hostname;
  // Host names are case-insensitive, and a trailing dot names the same host.
  const hostHeader = (c.req.header('host') ?? '').replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');
  if (!LOCAL_HOSTS.has(hostHeader || host)) return c.json({ error: 'the console answers on 127.0.0.1 / localhost only' }, 403);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('x-hookgate-console') !== '1') {
    return c.json({ error: 'console API calls need the header x-hookgate-console: 1' }, 403);
  }
  return next();
};

/**
 * Adds the console to a gateway app: `GET /console` (the page, which carries no data),
 * `/console/app.js`, and the JSON API under `/console/api/` the page uses.
 *
 * - `dev` (`hookgate dev`, on 127.0.0.1): also `GET /console/events` (server-sent events:
 *   replies, observer events, finished turns, undelivered replies) and shell-hook
 *   approve / revoke; other Host names and mutations without `x-hookgate-console` are refused.
 * - `aws` (the gateway λ, only when enabled): every `/console/api/*` call and
 *   `/console/events` need `Authorization: Bearer <HOOKGATE_API_TOKEN>`, checked as `/v1`
 *   checks it; no chat, no live stream (no in-process hub across Lambdas), consent read-only.
 *
 * Both send a CSP that allows only the console's own script, `no-store` and `nosniff`.
 *
 * @example
 * mountConsole(app, { mode: 'dev', hub, data: new ConsoleData({ table, sqs, dlqs, home }), home, replier });
 * mountConsole(app, { mode: 'aws', token: config.apiToken, data, home, replier });
 */
export function mountConsole(app: Hono, options: ConsoleOptions): void {
  const { data } = options;

  app.use('/console/*', async (c, next) => {
    c.header('cache-control', 'no-store');
    // base-uri and form-action are not covered by default-src.
    c.header(
      'content-security-policy',
      "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    await next();
  });
  if (options.mode === 'dev') {
    app.use('/console/*', loopbackOnly);
  } else {
    // The page and its script carry no data; everything that does needs the token.
    app.use('/console/api/*', requireBearerToken(options.token));
    app.use('/console/events', requireBearerToken(options.token));
  }
  app.use('/console/api/*', bodyLimit({ maxBytes: MAX_CONSOLE_BODY_BYTES }));
  const page = (c: Context) =>
    c.html(
      options.mode === 'dev'
        ? consolePage({ mode: 'dev', home: options.home, ...(options.state ? { state: options.state } : {}) })
        : consolePage({ mode: 'aws' }),
    );
  // `GET /console` is the fixed address (docs/architecture.md §4): it answers the page itself, not a
  // redirect that curl, Node's http.get or a test's app.request would not follow. The page names
  // its script and API by absolute path, so it works under either address.
  app.get('/console', page);
  app.get('/console/', page);
  app.get('/console/app.js', (c) => c.body(CONSOLE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));

  app.get('/console/api/undelivered', async (c) => c.json(await data.undelivered()));
  app.post('/console/api/undelivered/retry', async (c) => {
    const parsed = RetryRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: 'expected {"id": "<an undelivered reply id>"}' }, 400);
    const result = await data.retryUndelivered(parsed.data.id, options.replier);
    switch (result.outcome) {
      case 'delivered':
        return c.json({ delivered: true, message: 'delivered' });
      case 'failed':
        return c.json({ delivered: false, error: `still undelivered: ${result.error}` }, 502);
      case 'busy':
        return c.json({ error: 'already delivered, or a retry of it is in progress' }, 409);
      default:
        return c.json({ error: 'no such undelivered reply (it may have expired)' }, 404);
    }
  });

  app.get('/console/api/sessions', async (c) => c.json(await data.sessions()));
  app.get('/console/api/hook-stats/last-hour', async (c) => c.json(await data.recentHookStats()));
  app.get('/console/api/sessions/:sessionId/hook-stats', async (c) =>
    c.json(await data.sessionHookStats(c.req.param('sessionId'))),
  );
  app.get('/console/api/turns', async (c) => {
    const parsed = TurnListQuery.safeParse(c.req.query());
    if (!parsed.success) return c.json({ error: 'expected ?chat,user,hook,decision,error=1,text,limit (1-500),offset' }, 400);
    const { limit, offset, error, ...rest } = parsed.data;
    const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''));
    return c.json(await data.turns({ ...filter, ...(error ? { error: true } : {}) }, { limit, offset }));
  });
  app.get('/console/api/turns/:turnId', async (c) => {
    const turnId = c.req.param('turnId');
    if (!TURN_ID.test(turnId)) return c.json({ error: 'not a turn id' }, 400);
    return c.json(await data.turn(turnId));
  });
  app.get('/console/api/dlq', async (c) => c.json(await data.deadLetters()));
  app.post('/console/api/dlq/replay', async (c) => {
    const parsed = ReplayRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success || !data.hasDlq(parsed.data.queue)) {
      return c.json(
        {
          error: `expected {"queue": ${data
            .dlqNames()
            .map((n) => `"${n}"`)
            .join('|')}, "id"?: string}`,
        },
        400,
      );
    }
    const replayed = await data.replay(parsed.data.queue, parsed.data.id);
    return c.json({
      replayed: replayed.length,
      message: `${replayed.length} message(s) replayed to the ${parsed.data.queue} queue`,
    });
  });
  app.get('/console/api/hooks', async (c) => c.json(await data.hooks()));

  if (options.mode === 'aws') {
    app.get('/console/events', (c) =>
      c.json({ error: 'the live event stream is hookgate dev only (no in-process hub across Lambdas)' }, 404),
    );
    return;
  }
  const { hub } = options;
  app.get('/console/events', (c) =>
    streamSSE(c, async (stream) => {
      const queue: ConsoleEvent[] = [];
      let wake: (() => void) | undefined;
      const off = hub.subscribe((event) => {
        // A page that stopped reading must not grow the server's memory without bound.
        if (queue.length >= MAX_QUEUED_EVENTS) queue.shift();
        queue.push(event);
        wake?.();
      });
      let open = true;
      stream.onAbort(() => {
        open = false;
        off();
        wake?.();
      });
      await stream.writeSSE({ event: 'hello', data: '{}' });
      while (open) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ event: event.kind, data: JSON.stringify(event) });
          continue;
        }
        // Wait for the next event, or 15 s for a keep-alive comment.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (open && queue.length === 0) await stream.write(': keep-alive\n\n');
      }
      off();
    }),
  );

  // Replay (dev: the hooks home is on this disk): the turn's decision-hook calls against the hooks as they are now.
  app.post('/console/api/turns/:turnId/replay', async (c) => {
    const turnId = c.req.param('turnId');
    if (!TURN_ID.test(turnId)) return c.json({ error: 'not a turn id' }, 400);
    const replay = await data.replayTurn(turnId);
    return replay ? c.json(replay) : c.json({ error: `no hook calls recorded for ${turnId}` }, 404);
  });

  // What became of one delivery (`hookgate chat` waits on it): queued for a turn, done, its turn id (dev: the hub knows).
  app.get('/console/api/deliveries/:deliveryId', (c) => {
    const id = c.req.param('deliveryId');
    return c.json(hub.delivery(id) ?? { delivery_id: id, queued: false, done: false, replies: 0 });
  });

  // Shell-hook consent, as `hookgate hooks approve --yes` / `hooks revoke` (hook-semantics §4).
  app.post('/console/api/hooks/:action{approve|revoke}', async (c) => {
    const parsed = HookRef.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: 'expected {"event","command"}' }, 400);
    const { event, command } = parsed.data;
    const hooks = await data.hooks();
    if (!hooks.shell_hooks.some((h) => h.event === event && h.command === command) || !isHookName(event)) {
      return c.json({ error: `[${event}] ${command} is not a shell hook configured in ${hooks.config_path}` }, 404);
    }
    const allowlist = createFileAllowlistStore(options.home, createMemoryLogger());
    // With hot reload on, the allowlist write itself reloads the hooks.
    const restart = hooks.reload.watching
      ? 'hookgate dev reloads its hooks with it'
      : 'takes effect when hookgate dev restarts (hot reload is off)';
    if (c.req.param('action') === 'approve') {
      if (!(await allowlist.record(approvalFor(event, command))))
        return c.json({ error: `could not write ${allowlist.location}` }, 500);
      return c.json({ message: `approved [${event}] ${command} in ${allowlist.location}; ${restart}` });
    }
    const removed = await allowlist.revoke(command);
    return c.json({ message: `removed ${removed} allowlist entr${removed === 1 ? 'y' : 'ies'} for ${command}; ${restart}` });
  });
}

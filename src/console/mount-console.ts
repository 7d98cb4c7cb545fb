import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { isHookName } from '../hooks/catalogue.ts';
import { createMemoryLogger } from '../hooks/hook-logger.ts';
import { approvalFor } from '../hooks/shell/consent.ts';
import { createFileAllowlistStore } from '../hooks/shell/file-allowlist-store.ts';
import type { ConsoleData } from './console-data.ts';
import type { ConsoleEvent, ConsoleHub } from './console-hub.ts';
import { consolePage } from './console-page.ts';
import { CONSOLE_SCRIPT } from './console-script.ts';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const HookRef = z.object({ event: z.string().min(1), command: z.string().min(1) });
const ReplayRequest = z.object({ queue: z.enum(['turns', 'events']), id: z.string().min(1).optional() });
const TURN_ID = /^[A-Za-z0-9_:.-]{1,200}$/;
const MAX_QUEUED_EVENTS = 1000;

export interface ConsoleOptions {
  hub: ConsoleHub;
  data: ConsoleData;
  /** The hooks home whose shell-hook allowlist approve / revoke write. */
  home: string;
  /** Shown in the header: where state is kept. */
  state?: string;
}

/**
 * Adds the developer console to the dev gateway: `GET /console` (the page), `/console/app.js`,
 * `GET /console/events` (server-sent events: replies, observer events, finished turns) and
 * the JSON API under `/console/api/` the page uses. `hookgate dev` only: it serves on
 * 127.0.0.1, and the console refuses other Host names (DNS rebinding) and mutations without
 * its `x-hookgate-console` header (cross-site forms). The Lambda gateway never mounts it.
 *
 * @example
 * mountConsole(app, { hub, data: new ConsoleData({ table, sqs, dlqs, home }), home });
 */
export function mountConsole(app: Hono, options: ConsoleOptions): void {
  const { hub, data } = options;

  app.use('/console/*', async (c, next) => {
    const host = new URL(c.req.url).hostname;
    const hostHeader = (c.req.header('host') ?? '').replace(/:\d+$/, '');
    if (!LOCAL_HOSTS.has(hostHeader || host)) return c.json({ error: 'the console answers on 127.0.0.1 / localhost only' }, 403);
    if (c.req.method !== 'GET' && c.req.header('x-hookgate-console') !== '1') {
      return c.json({ error: 'console API calls need the header x-hookgate-console: 1' }, 403);
    }
    c.header('cache-control', 'no-store');
    c.header('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    c.header('x-content-type-options', 'nosniff');
    await next();
  });
  app.get('/console', (c) => c.redirect('/console/'));
  app.get('/console/', async (c) => c.html(consolePage({ hooks: await data.hooks(), ...(options.state ? { state: options.state } : {}) })));
  app.get('/console/app.js', (c) => c.body(CONSOLE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));

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

  app.get('/console/api/sessions', async (c) => c.json(await data.sessions()));
  app.get('/console/api/turns/:turnId', async (c) => {
    const turnId = c.req.param('turnId');
    if (!TURN_ID.test(turnId)) return c.json({ error: 'not a turn id' }, 400);
    return c.json(await data.turn(turnId));
  });
  // What became of one delivery (`hookgate chat` waits on it): queued for a turn, done, its turn id.
  app.get('/console/api/deliveries/:deliveryId', (c) => {
    const id = c.req.param('deliveryId');
    return c.json(hub.delivery(id) ?? { delivery_id: id, queued: false, done: false, replies: 0 });
  });
  app.get('/console/api/dlq', async (c) => c.json(await data.deadLetters()));
  app.post('/console/api/dlq/replay', async (c) => {
    const parsed = ReplayRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: 'expected {"queue":"turns"|"events","id"?:string}' }, 400);
    const replayed = await data.replay(parsed.data.queue, parsed.data.id);
    return c.json({ replayed: replayed.length, message: `${replayed.length} message(s) replayed to the ${parsed.data.queue} queue` });
  });
  app.get('/console/api/hooks', async (c) => c.json(await data.hooks()));

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
    const restart = 'takes effect when hookgate dev restarts';
    if (c.req.param('action') === 'approve') {
      if (!(await allowlist.record(approvalFor(event, command)))) return c.json({ error: `could not write ${allowlist.location}` }, 500);
      return c.json({ message: `approved [${event}] ${command} in ${allowlist.location}; ${restart}` });
    }
    const removed = await allowlist.revoke(command);
    return c.json({ message: `removed ${removed} allowlist entr${removed === 1 ? 'y' : 'ies'} for ${command}; ${restart}` });
  });
}

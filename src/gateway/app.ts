import { Hono } from 'hono';
import { assertLoopbackHost } from '../platforms/local/loopback-json-only.ts';
import { HTTPException } from 'hono/http-exception';
import { PLATFORM_NAMES, type PlatformName } from '../config/deployment-config.ts';
import type { Delivery, PlatformAdapter } from '../platforms/platform-adapter.ts';
import { TurnMessageTooLargeError } from '../pipeline/turn-queue-sender.ts';
import { hookApi } from './api/hook-api.ts';
import { requireBearerToken } from './api/require-bearer-token.ts';
import { bodyLimit } from './body-limit.ts';
import { dispatchBatch } from './dispatch/dispatch-batch.ts';
import { createDispatcher } from './dispatch/dispatch-message.ts';
import type { DispatchOutcome } from './dispatch/dispatch-outcome.ts';
import { createAdapters } from './gateway-adapters.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { checkDeliveryLimits, checkId } from './input-limits.ts';
import { PlatformDisabledError, WebhookError } from '../platforms/webhook-errors.ts';
import { logExcerpt } from '../secrets/log-excerpt.ts';
import { withLogContext } from '../logging/log-context.ts';
import { errorText } from '../errors/error-text.ts';
import { sessionKeyOf } from '../messaging/message-event.ts';

/** Larger bodies than any platform sends are refused with 413 (drained, never held in memory). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * How long the acknowledgement waits for the gateway's own reply (a command's answer, a refusal).
 * Slack wants its 2xx within 3 s, and a platform API that hangs would otherwise hold the webhook
 * for two tries of 10 s each; past this the webhook is acknowledged and the send goes on alone.
 */
export const GATEWAY_REPLY_WAIT_MS = 1_500;

/**
 * The gateway as a Hono app: `/webhooks/{platform}` (+ `GET /webhooks/whatsapp`,
 * `GET /webhooks/local/messages`), `/v1/hooks/{hook}`, `/v1/events`, `/healthz`.
 * Refused requests get a 4xx with a clear message; when the work could not be made durable
 * the answer is 503 so the platform retries. No stack trace ever reaches the caller.
 *
 * @example
 * const app = createGatewayApp(deps);
 * serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 8787 });
 */
export function createGatewayApp(deps: GatewayDeps): Hono {
  const { config, logger, replier } = deps;
  const adapters = createAdapters(config);
  const dispatch = createDispatcher(deps);
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof WebhookError) {
      logger.info('webhook refused', { status: error.status, reason: error.message, path: c.req.path });
      return c.json({ error: error.message }, error.status);
    }
    if (error instanceof HTTPException) return error.getResponse();
    if (error instanceof TurnMessageTooLargeError) {
      logger.info('webhook refused', { status: 413, reason: error.message, path: c.req.path });
      return c.json({ error: `the message is too large to queue: ${error.message}` }, 413);
    }
    // The caller hung up before its request was read (its body cut short): nobody is there to answer, and nothing
    // was acknowledged, so not a failure of ours. Lambda's front ends buffer the whole body; this is a local server's.
    if (c.req.raw.signal.aborted) {
      logger.warn('the caller went away before its request was read', { path: c.req.path, error: errorText(error) });
      return c.json({ error: 'the request was cut short' }, 400);
    }
    // The stack, not just errorText: an unexpected failure here is a bug to find.
    logger.error('request failed; answering 503 so the sender retries', {
      path: c.req.path,
      error: (error as Error).stack ?? errorText(error),
    });
    return c.json({ error: 'temporarily unable to accept this request; retry' }, 503);
  });
  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));

  // Only the state, nothing about the deployment (which platforms are on is not the caller's business).
  app.get('/healthz', (c) => {
    const report = deps.turnHealth?.report() ?? { status: 'ok' as const };
    return c.json(report, report.status === 'ok' ? 200 : 503);
  });

  app.get('/webhooks/local/messages', async (c) => {
    if (!adapters.has('local') || !deps.outbox) throw new PlatformDisabledError('the local platform is not enabled');
    assertLoopbackHost(c.req.raw.headers, new URL(c.req.url));
    const chatId = c.req.query('chat_id');
    if (!chatId) return c.json({ error: 'chat_id query parameter is required' }, 400);
    checkId('chat_id', chatId);
    return c.json(await deps.outbox.list(chatId));
  });

  /** One delivery dispatched, and the gateway's own answer to it (a command's, a refusal's) sent. */
  const dispatchAndAnswer = (adapter: PlatformAdapter, delivery: Delivery): Promise<DispatchOutcome> => {
    const source = delivery.event.source;
    // Every log line of this delivery names it and its chat (the turn carries them on).
    const labels = { delivery_id: delivery.deliveryId, chat_id: source.chat_id, platform: source.platform };
    return withLogContext(labels, async (): Promise<DispatchOutcome> => {
      const result = await dispatch(delivery);
      if (result.reply !== undefined && !adapter.repliesInline) {
        // The gateway's own answer (command, refusal): the turn is not involved, and a failed
        // send must not make the platform redeliver an already-handled message.
        const sent = replier.send(delivery.event.reply, result.reply).then(
          () => 'sent' as const,
          (error: unknown) =>
            logger.warn('gateway reply could not be sent', {
              platform: adapter.platform,
              delivery_id: delivery.deliveryId,
              error: logExcerpt(errorText(error)),
            }),
        );
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), GATEWAY_REPLY_WAIT_MS)));
        if ((await Promise.race([sent, late])) === 'late') {
          logger.warn(`gateway reply still sending after ${GATEWAY_REPLY_WAIT_MS} ms; the webhook is acknowledged without it`, {
            platform: adapter.platform,
            delivery_id: delivery.deliveryId,
          });
        }
        clearTimeout(timer);
      }
      return result;
    });
  };

  app.use('/webhooks/*', bodyLimit({ maxBytes: MAX_BODY_BYTES }));
  app.all('/webhooks/:platform', async (c) => {
    const name = c.req.param('platform');
    const adapter = (PLATFORM_NAMES as readonly string[]).includes(name) ? adapters.get(name as PlatformName) : undefined;
    if (!adapter) throw new PlatformDisabledError(`platform ${JSON.stringify(name)} is not enabled in this deployment`);
    // GET is WhatsApp's subscription handshake; every other platform, and every other method, only POSTs.
    const allowed = name === 'whatsapp' ? 'GET, POST' : 'POST';
    if (!allowed.split(', ').includes(c.req.method)) return c.json({ error: `use ${allowed}` }, 405, { Allow: allowed });
    const verdict = await adapter.handle({
      method: c.req.method,
      url: new URL(c.req.url),
      headers: c.req.raw.headers,
      body: c.req.method === 'POST' ? new Uint8Array(await c.req.arrayBuffer()) : new Uint8Array(),
    });
    if (verdict.kind === 'respond') return verdict.response;
    // All of them, before the first is claimed or queued: a refusal must not follow a partial ack.
    for (const delivery of verdict.deliveries) checkDeliveryLimits(delivery);

    // A notification's chats side by side, each chat's messages in order (dispatch-batch.ts).
    const outcomes = await dispatchBatch(
      verdict.deliveries,
      (delivery) => sessionKeyOf(delivery.event.source),
      (delivery) => dispatchAndAnswer(adapter, delivery),
    );
    return verdict.acknowledge(outcomes);
  });

  // Authenticate first: an unauthenticated caller's body is not read beyond the drain.
  app.use('/v1/*', requireBearerToken(config.apiToken));
  app.use('/v1/*', bodyLimit({ maxBytes: 8 * MAX_BODY_BYTES }));
  app.route('/v1', hookApi(deps));

  return app;
}

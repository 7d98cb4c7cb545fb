import * as z from '../validation/zod.ts';
import { jsonDepth, MAX_JSON_DEPTH } from '../validation/json-depth.ts';
import type { MessageEvent } from '../messaging/message-event.ts';
import type { PlatformName } from './registry.ts';
import { MalformedPayloadError } from './webhook-errors.ts';

/** What an adapter sees of the HTTP request. */
export interface InboundRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  /** The body's bytes as sent: what a signature covers, decoded only once it has verified (`parsePayload`). */
  readonly body: Uint8Array;
}

/** One platform message to dispatch; `deliveryId` is also its dedup key (`<platform>:<id>`). */
export interface Delivery {
  readonly deliveryId: string;
  readonly event: MessageEvent;
  /** The platform says this request repeats one it sent before and got no answer to in time (Slack's `X-Slack-Retry-Num`). */
  readonly retry?: boolean;
}

/**
 * What an adapter's acknowledgement sees of each delivery's dispatch: the gateway's
 * `DispatchOutcome` (gateway/dispatch/dispatch-outcome.ts) has this shape.
 */
export interface DeliveryOutcome {
  readonly kind: 'enqueued' | 'duplicate' | 'skipped' | 'refused' | 'command';
  /** The text the user gets now from the gateway itself (refusal, command answer). */
  readonly reply?: string | undefined;
}

export type AdapterVerdict =
  /** Answered by the adapter alone: handshakes (challenge, PING) and updates that start no turn. */
  | { readonly kind: 'respond'; readonly response: Response }
  /** Messages to dispatch; `acknowledge` builds the platform's answer once they are durable. */
  | {
      readonly kind: 'deliver';
      readonly deliveries: readonly Delivery[];
      readonly acknowledge: (outcomes: readonly DeliveryOutcome[]) => Response;
    };

/**
 * One chat platform: verify, handshake, normalise to `MessageEvent`, name the dedup key.
 * It throws a `WebhookError` for requests it refuses. Its reply sender lives beside it
 * (`<name>-reply.ts`); `Platform` (platform.ts) holds both.
 */
export interface PlatformAdapter {
  readonly platform: PlatformName;
  /**
   * True when the platform's HTTP answer itself carries an inline reply (Discord's
   * interaction response), so the gateway must not also send it through the Replier.
   */
  readonly repliesInline?: boolean;
  handle(request: InboundRequest): Promise<AdapterVerdict>;
}

/** A JSON response (the adapters are framework-free; Hono passes Responses through). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/**
 * Refuses a body that is not UTF-8 (JSON is, RFC 8259), where a lenient decode would put U+FFFD in its text. A leading
 * byte order mark is dropped, as RFC 8259 lets a parser do.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a verified body as UTF-8 JSON and validates it, or throws `MalformedPayloadError` (400)
 * saying what is wrong.
 *
 * @example
 * const update = parsePayload(request.body, TelegramUpdate, 'telegram update');
 */
export function parsePayload<T>(body: Uint8Array, schema: z.ZodMiniType<T>, what: string): T {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new MalformedPayloadError(`${what}: the body is not UTF-8`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedPayloadError(`${what}: the body is not JSON`);
  }
  if (jsonDepth(json) > MAX_JSON_DEPTH)
    throw new MalformedPayloadError(`${what}: the body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep`);
  return validatePayload(json, schema, what);
}

/**
 * Validates a part of a parsed body (an envelope's event, once its type says which schema
 * applies), or throws `MalformedPayloadError` (400) saying what is wrong.
 *
 * @example
 * const message = validatePayload(envelope.event, SlackMessageEvent, 'slack message event');
 */
export function validatePayload<T>(json: unknown, schema: z.ZodMiniType<T>, what: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new MalformedPayloadError(`${what}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  return parsed.data;
}

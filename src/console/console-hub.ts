import type { Replier } from '../messaging/replier.ts';
import type { ObserverEvent, ObserverSink } from '../hooks/observer-sink.ts';
import { REPLY_UNDELIVERED_EVENT } from '../agent/turn/undelivered-reply.ts';
import { currentLogContext } from '../logging/log-context.ts';

/** What the console's event stream (`GET /console/events`) carries. */
export type ConsoleEvent =
  | {
      kind: 'reply';
      platform: string;
      chat_id: string;
      thread_id: string;
      text: string;
      at: string;
      delivery_id?: string;
      turn_id?: string;
    }
  | { kind: 'observer'; type: string; session_id?: string; turn_id?: string; payload: Record<string, unknown>; at: string }
  | { kind: 'turn-done'; delivery_id?: string; turn_id?: string; at: string }
  /** A reply the platform never took (the `reply:undelivered` event); the page reloads its list. */
  | { kind: 'undelivered'; platform: string; chat_id: string; turn_id?: string; at: string }
  | ({ kind: 'reload' } & ReloadNotice);

/** One hot-reload attempt of `hookgate dev`, as the console shows it. */
export interface ReloadNotice {
  ok: boolean;
  /** The log line: `hooks reloaded (…): …` or `reload failed, still running the previous hooks: …`. */
  message: string;
  at: string;
}

/** Whether `hookgate dev` reloads its hooks on change, and how the latest attempt went. */
export interface ReloadStatus {
  watching: boolean;
  last?: ReloadNotice;
}

/** What the hub knows of one recent delivery (`GET /console/api/deliveries/:id`, used by `hookgate chat`). */
export interface DeliveryStatus {
  delivery_id: string;
  /** A turn was queued for it (false: the gateway answered it, or dropped it, by itself). */
  queued: boolean;
  /** Its turn was handled (answered, suspended for an approval, or failed for SQS to retry). */
  done: boolean;
  /** How many replies were sent for it so far (the gateway's own answers and the turn's). */
  replies: number;
  /** The turn it started or resumed, once known. */
  turn_id?: string;
}

/** How many deliveries the hub remembers (oldest forgotten first). */
const REMEMBERED_DELIVERIES = 1000;

type Listener = (event: ConsoleEvent) => void;

/**
 * In-process fan-out of what happens in `hookgate dev` to the open console pages: replies as
 * they are sent, observer events as they are published. Watching never changes the
 * outcome: a listener that throws is dropped, the reply or publish goes on.
 *
 * @example
 * const hub = new ConsoleHub();
 * deps.replier = hub.watchReplier(deps.replier);
 * const off = hub.subscribe((event) => console.log(event.kind));
 */
export class ConsoleHub {
  private readonly listeners = new Set<Listener>();
  private readonly deliveries = new Map<string, DeliveryStatus>();

  /** The recent delivery `id`, or undefined when the hub never saw it queued or answered. */
  delivery(id: string): DeliveryStatus | undefined {
    const status = this.deliveries.get(id);
    return status ? { ...status } : undefined;
  }

  private note(id: string | undefined, change: Partial<DeliveryStatus>): void {
    if (!id) return;
    const status = this.deliveries.get(id) ?? { delivery_id: id, queued: false, done: false, replies: 0 };
    for (const [key, value] of Object.entries(change))
      if (value !== undefined) (status as unknown as Record<string, unknown>)[key] = value;
    this.deliveries.delete(id);
    this.deliveries.set(id, status);
    if (this.deliveries.size > REMEMBERED_DELIVERIES) this.deliveries.delete(this.deliveries.keys().next().value as string);
  }

  /** Notes each turn message queued (so `hookgate chat` knows a reply is coming). */
  watchTurnQueue<Q extends { send(message: { delivery_id: string }): Promise<void> }>(queue: Q): Q {
    return Object.assign(Object.create(queue) as Q, {
      send: async (message: { delivery_id: string }) => {
        await queue.send(message);
        this.note(message.delivery_id, { queued: true });
      },
    });
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ConsoleEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  /** Reports each reply after it was sent (a failed send is not shown as a reply). */
  watchReplier(replier: Replier): Replier {
    return {
      send: async (target, text) => {
        await replier.send(target, text);
        // Sent from inside a delivery or a turn: say which (the log context carries them).
        const { delivery_id, turn_id } = currentLogContext();
        this.note(delivery_id, { turn_id, replies: (delivery_id ? (this.deliveries.get(delivery_id)?.replies ?? 0) : 0) + 1 });
        this.publish({
          kind: 'reply',
          platform: target.platform,
          chat_id: target.chat_id,
          thread_id: target.thread_id,
          text,
          at: new Date().toISOString(),
          ...(delivery_id ? { delivery_id } : {}),
          ...(turn_id ? { turn_id } : {}),
        });
      },
    };
  }

  /** Reports observer events once they were handed over. */
  watchSink(sink: ObserverSink): ObserverSink {
    return {
      publish: async (events: readonly ObserverEvent[]) => {
        const ids = await sink.publish(events);
        const at = new Date().toISOString();
        const { delivery_id } = currentLogContext();
        for (const event of events) this.note(delivery_id, { turn_id: event.turn_id });
        for (const event of events) {
          if (event.type === REPLY_UNDELIVERED_EVENT) {
            const { platform, chat_id } = event.payload;
            this.publish({
              kind: 'undelivered',
              platform: String(platform),
              chat_id: String(chat_id),
              at,
              ...(event.turn_id ? { turn_id: event.turn_id } : {}),
            });
          }
          this.publish({
            kind: 'observer',
            type: event.type,
            payload: event.payload,
            at,
            ...(event.session_id ? { session_id: event.session_id } : {}),
            ...(event.turn_id ? { turn_id: event.turn_id } : {}),
          });
        }
        return ids;
      },
    };
  }

  /** Announces each handled batch of the turns queue (the page then reloads the timeline). */
  watchTurns<E extends { Records: readonly { body: string }[] }, R>(handler: (event: E) => Promise<R>): (event: E) => Promise<R> {
    return async (event) => {
      try {
        return await handler(event);
      } finally {
        for (const record of event.Records) {
          const id = deliveryIdOf(record.body);
          this.note(id, { done: true });
          const turnId = id ? this.deliveries.get(id)?.turn_id : undefined;
          this.publish({
            kind: 'turn-done',
            at: new Date().toISOString(),
            ...(id ? { delivery_id: id } : {}),
            ...(turnId ? { turn_id: turnId } : {}),
          });
        }
      }
    };
  }

  get size(): number {
    return this.listeners.size;
  }
}

function deliveryIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { delivery_id?: unknown }).delivery_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

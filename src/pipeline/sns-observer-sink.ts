import { randomUUID } from 'node:crypto';
import { redactKey } from '../secrets/redact-key.ts';
import type { PublishBatchRequestEntry, SNSClient } from '@aws-sdk/client-sns';
import type { ObserverEvent, ObserverSink } from '../hooks/observer-sink.ts';
import { redactSecretsDeep } from '../secrets/redact-secrets.ts';
import { EVENT_TYPE_ATTRIBUTE } from './topology.ts';
import type { S3PayloadStore } from './payload-store.ts';
import { InvalidObserverEventError, ObserverPublishError } from './observer-publish-error.ts';
import { resolveClient, type ClientSource } from './lazy-client.ts';
import { escapeNonAscii } from './ascii-json.ts';
import { textOf } from '../hooks/text-of.ts';
import type { OutboxEntry } from './observer-outbox.ts';
import { errorText } from '../errors/error-text.ts';

/** SNS: 256 KiB per message and per PublishBatch request (body + attribute names, types, values). */
export const SNS_MAX_BYTES = 262_144;
const MAX_BATCH_ENTRIES = 10;

export interface SnsObserverSinkOptions {
  /** The client, or a loader that builds it on the first publish (the SDK package loads then). */
  sns: ClientSource<SNSClient>;
  topicArn: string;
  /** Where payloads of envelopes over `maxMessageBytes` go. */
  payloads: S3PayloadStore;
  /** Tries per batch before giving up (partial failures and whole-request errors alike). */
  maxAttempts?: number;
  /** First backoff delay; doubles per attempt, with jitter. */
  baseDelayMs?: number;
  /** Largest envelope sent inline; bigger ones are offloaded. Defaults to the SNS limit. */
  maxMessageBytes?: number;
  now?: () => Date;
  newId?: () => string;
  /**
   * Where envelopes go that SNS did not take after `maxAttempts` (docs/reliability.md,
   * "Observer outbox"): kept on the table and published later by the sweeper. Without it, such
   * a publish rejects with `ObserverPublishError`.
   */
  outbox?: ObserverOutboxPort;
}

/** What the sink needs of the outbox (`DynamoObserverOutbox`). */
export interface ObserverOutboxPort {
  put(entries: readonly OutboxEntry[]): Promise<void>;
  isPending(sessionId: string | null): Promise<boolean>;
}

interface Prepared {
  id: string;
  body: string;
  type: string;
  bytes: number;
  session_id: string | null;
}

/**
 * The pipeline's `ObserverSink`: wraps each event in envelope v1 and publishes it to the
 * events topic with PublishBatch (≤ 10 entries and ≤ 256 KiB per request), message
 * attribute `event_type` = the envelope's type (for subscription filter policies). An
 * envelope too large for one message has its payload stored in S3 and carries a pointer.
 * Entries that fail are retried with backoff; when they still fail the promise rejects with
 * `ObserverPublishError`, so the caller can answer 5xx upstream.
 *
 * @example
 * const sink = new SnsObserverSink({ sns, topicArn: aws.eventsTopicArn, payloads: new S3PayloadStore(s3, aws.payloadBucket) });
 * const engine = createHookEngine({ home, observerSink: sink });
 */
export class SnsObserverSink implements ObserverSink {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxMessageBytes: number;
  private readonly now: () => Date;
  private readonly newId: () => string;

  constructor(private readonly options: SnsObserverSinkOptions) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 50;
    this.maxMessageBytes = Math.min(options.maxMessageBytes ?? SNS_MAX_BYTES, SNS_MAX_BYTES);
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
  }

  /** Sessions whose events went to the outbox from this process: their next events follow them there (order per session). */
  private readonly held = new Set<string | null>();

  async publish(events: readonly ObserverEvent[]): Promise<string[]> {
    const prepared: Prepared[] = [];
    // Observer events leave the process here: known secrets and secret shapes are redacted, in
    // the payload and in the keys a caller of /v1/events may set.
    for (const event of events) {
      const keys = {
        ...(event.id !== undefined ? { id: redactKey(event.id) } : {}),
        ...(typeof event.session_id === 'string' ? { session_id: redactKey(event.session_id) } : {}),
        ...(typeof event.turn_id === 'string' ? { turn_id: redactKey(event.turn_id) } : {}),
      };
      prepared.push(await this.prepare({ ...event, ...keys, payload: redactSecretsDeep(event.payload) }));
    }
    const outbox = this.options.outbox;
    let direct = prepared;
    if (outbox && this.held.size > 0) {
      // A held session's events go behind its outboxed ones until the sweeper has published those.
      for (const session of new Set(prepared.map((p) => p.session_id))) {
        if (this.held.has(session) && !(await outbox.isPending(session))) this.held.delete(session);
      }
      const behind = prepared.filter((p) => this.held.has(p.session_id));
      if (behind.length > 0) {
        await this.keep(behind);
        direct = prepared.filter((p) => !this.held.has(p.session_id));
      }
    }
    // Batches go out one after the other so emission order is kept as far as SNS keeps it.
    const batches = packBatches(direct);
    for (const [index, batch] of batches.entries()) {
      try {
        await this.sendBatch(batch);
      } catch (error) {
        if (!outbox || !(error instanceof ObserverPublishError) || error.permanent) throw error;
        // SNS is unreachable or refusing: this batch's unsent envelopes and every later one are kept, in order.
        const failed = new Set(error.failedIds);
        await this.keep([...batch.filter((p) => failed.has(p.id)), ...batches.slice(index + 1).flat()], error);
        break;
      }
    }
    return prepared.map((p) => p.id);
  }

  /**
   * Publishes envelopes exactly as they were prepared (the outbox sweeper's path), with the same
   * retries; rejects with `ObserverPublishError` when they still do not go out.
   */
  async republish(entries: readonly Pick<OutboxEntry, 'id' | 'type' | 'body'>[]): Promise<void> {
    const prepared = entries.map((entry) => ({ ...entry, bytes: entryBytes(entry.body, entry.type), session_id: null }));
    for (const batch of packBatches(prepared)) await this.sendBatch(batch);
  }

  private async keep(items: readonly Prepared[], cause?: ObserverPublishError): Promise<void> {
    try {
      await this.options.outbox!.put(items.map((p) => ({ id: p.id, type: p.type, body: p.body, session_id: p.session_id })));
    } catch (error) {
      // Neither SNS nor the table took them: the caller answers 5xx, as before the outbox.
      throw new ObserverPublishError(
        `${cause?.message ?? 'observer events held for their session'}; the outbox could not keep them either: ${errorText(error)}`,
        items.map((p) => p.id),
        { cause: error },
      );
    }
    for (const item of items) this.held.add(item.session_id);
  }

  private async prepare(event: ObserverEvent): Promise<Prepared> {
    if (typeof event.type !== 'string' || event.type.length === 0 || event.type.length > 200) {
      throw new InvalidObserverEventError(`observer event type must be a non-empty string, got ${JSON.stringify(event.type)}`);
    }
    if (event.payload === null || typeof event.payload !== 'object' || Array.isArray(event.payload)) {
      throw new InvalidObserverEventError(`observer event ${event.type}: payload must be an object`);
    }
    const id = event.id ?? this.newId();
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
      throw new InvalidObserverEventError(`observer event ${event.type}: id must be a string of 1 to 200 characters`);
    }
    let payloadJson: string;
    try {
      // ASCII-only (see asciiJson): SNS and SQS refuse some characters chat text can hold.
      payloadJson = escapeNonAscii(toJson(event.payload));
    } catch (error) {
      throw new InvalidObserverEventError(
        `observer event ${event.type} (${id}): payload is not serialisable: ${errorText(error)}`,
      );
    }
    const head = escapeNonAscii(
      `{"v":1,"id":${JSON.stringify(id)},"type":${JSON.stringify(event.type)},` +
        `"occurred_at":${JSON.stringify(this.now().toISOString())},` +
        `"session_id":${JSON.stringify(event.session_id ?? null)},"turn_id":${JSON.stringify(event.turn_id ?? null)},` +
        (event.ran_at_source ? '"ran_at_source":true,' : ''),
    );
    let body = `${head}"payload":${payloadJson}}`;
    let bytes = entryBytes(body, event.type);
    if (bytes > this.maxMessageBytes) {
      const ref = await this.options.payloads.put(id, payloadJson);
      body = `${head}"payload":null,"payload_ref":${JSON.stringify(ref)}}`;
      bytes = entryBytes(body, event.type);
    }
    return { id, body, type: event.type, bytes, session_id: event.session_id ?? null };
  }

  private async sendBatch(batch: readonly Omit<Prepared, 'session_id'>[]): Promise<void> {
    let pending = batch.map((p, i): [string, Omit<Prepared, 'session_id'>] => [String(i), p]);
    let lastReason = '';
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > this.maxAttempts) {
        throw new ObserverPublishError(
          `could not publish ${pending.length} observer event(s) to ${this.options.topicArn} after ${this.maxAttempts} attempts: ${lastReason}`,
          pending.map(([, p]) => p.id),
        );
      }
      if (attempt > 1) await sleep(this.baseDelayMs * 2 ** (attempt - 2) * (0.5 + Math.random()));
      const entries: PublishBatchRequestEntry[] = pending.map(([entryId, p]) => ({
        Id: entryId,
        Message: p.body,
        MessageAttributes: { [EVENT_TYPE_ATTRIBUTE]: { DataType: 'String', StringValue: p.type } },
      }));
      let failed: { Id?: string; Code?: string; Message?: string; SenderFault?: boolean }[];
      try {
        const [sns, { PublishBatchCommand }] = await Promise.all([
          resolveClient(this.options.sns),
          import('@aws-sdk/client-sns'),
        ]);
        const out = await sns.send(
          new PublishBatchCommand({ TopicArn: this.options.topicArn, PublishBatchRequestEntries: entries }),
        );
        failed = out.Failed ?? [];
      } catch (error) {
        lastReason = errorText(error);
        continue; // the whole request failed: retry all of it
      }
      const byId = new Map(pending);
      const permanent = failed.filter((f) => f.SenderFault);
      if (permanent.length > 0) {
        throw new ObserverPublishError(
          `SNS rejected observer event(s): ${permanent.map((f) => `${byId.get(f.Id ?? '')?.id}: ${f.Code} ${f.Message}`).join('; ')}`,
          permanent.map((f) => byId.get(f.Id ?? '')?.id ?? '?'),
          { permanent: true },
        );
      }
      lastReason = failed.map((f) => `${f.Code} ${f.Message}`).join('; ');
      const retry = new Set(failed.map((f) => f.Id));
      pending = pending.filter(([entryId]) => retry.has(entryId));
    }
  }
}

/** SNS counts the body plus each attribute's name, type and value. */
function entryBytes(body: string, type: string): number {
  return Buffer.byteLength(body, 'utf8') + EVENT_TYPE_ATTRIBUTE.length + 'String'.length + Buffer.byteLength(type, 'utf8');
}

/** Greedy, order-keeping packing into PublishBatch requests. */
function packBatches<T extends Pick<Prepared, 'bytes'>>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length === MAX_BATCH_ENTRIES || (current.length > 0 && bytes + item.bytes > SNS_MAX_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * JSON for a payload: values JSON has no form for (bigint, Map, Set, class instances,
 * functions, symbols) become `String(value)`, as in wire JSON (hook-semantics §0.4); one
 * whose `toString` throws becomes its tag (`[object Object]`).
 */
function toJson(payload: Record<string, unknown>): string {
  return JSON.stringify(payload, function (this: unknown, _key, value: unknown) {
    switch (typeof value) {
      case 'bigint':
      case 'function':
      case 'symbol':
        return String(value);
      case 'number':
        return Number.isFinite(value) ? value : null;
      case 'object': {
        if (value === null || Array.isArray(value)) return value;
        const proto = Object.getPrototypeOf(value);
        // A toString that throws must not lose the event: the object's tag stands in.
        return proto === Object.prototype || proto === null ? value : (textOf(value) ?? Object.prototype.toString.call(value));
      }
      default:
        return value;
    }
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createStderrLogger, type HookLogger } from '../hooks/hook-logger.ts';
import { parseEnvelope, type Envelope } from '../pipeline/envelope.ts';
import type { S3PayloadStore } from '../pipeline/payload-store.ts';
import { SingleTableIdempotencyStore } from '../pipeline/idempotency-store.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../pipeline/topology.ts';
import { PayloadFetchError } from '../pipeline/payload-store.ts';
import { errorText } from '../errors/error-text.ts';

export interface ObserverConsumerOptions {
  /**
   * Runs the hooks of one observer event (plugin observers, gateway event hooks, shell
   * observers). With `hasObservers`, an event nothing observes is acknowledged without an
   * idempotency record (running nothing twice is harmless): no table write, no payload fetch.
   */
  engine: Pick<HookEngine, 'runObservers'> & Partial<Pick<HookEngine, 'hasObservers'>>;
  /** The single table and a client for it: idempotency records live there. */
  table: { tableName: string; client: DynamoDBClient };
  /** Resolves offloaded payloads. */
  payloads: S3PayloadStore;
  /** How long an envelope id is remembered as done (default 4 days, the events queue's retention). */
  idempotencySeconds?: number;
  logger?: HookLogger;
  /**
   * The observer side's telemetry (telemetry/telemetry-export.ts): events it `handles` are
   * recorded once per envelope id (their own idempotency records, `IDEMPOTENCY#telemetry#…`),
   * whether or not a hook observes them; `flush` runs after each batch.
   */
  telemetry?: ObserverTelemetry;
  /** Wraps each envelope's run of its observers (the runtime records what they did in the turn's trace). */
  around?: (envelope: Envelope, run: () => Promise<void>) => Promise<void>;
}

/** What the consumer needs of the telemetry export (defined in telemetry/, which builds on this folder). */
export interface ObserverTelemetry {
  handles(type: string): boolean;
  record(envelopeId: string, payload: Record<string, unknown>): Promise<void>;
  flush(): Promise<void>;
}

/** The idempotency key prefix of telemetry records (the observers' is SingleTableIdempotencyStore.KEY_PREFIX). */
export const TELEMETRY_KEY_PREFIX = 'IDEMPOTENCY#telemetry';

export type ObserverHandler = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

/**
 * The observer λ's logic: for each SQS record (an envelope v1 from the events topic) run
 * the matching observers through the engine, at most once per envelope id — Powertools
 * idempotency on the single table makes SQS's at-least-once delivery run observers once.
 * Powertools `BatchProcessor` reports only the failed records (`batchItemFailures`), so
 * they alone come back; after MAX_RECEIVE_COUNT receives SQS moves them to the DLQ. A
 * record that is not an envelope, whose payload cannot be fetched or whose engine run
 * throws counts as failed.
 *
 * @example
 * const handler = createObserverConsumer({ engine, table: { tableName, client: ddb }, payloads });
 * export const lambdaHandler = handler; // or: startSqsPoller({ …, handler })
 */
export function createObserverConsumer(options: ObserverConsumerOptions): ObserverHandler {
  const logger = options.logger ?? createStderrLogger();
  const config = new IdempotencyConfig({ expiresAfterSeconds: options.idempotencySeconds ?? 4 * 86_400 });
  // Each idempotent operation with a store of its own, bound to its key prefix (idempotency-store.ts).
  const once = (keyPrefix: string) => ({
    persistenceStore: new SingleTableIdempotencyStore(options.table, keyPrefix),
    keyPrefix,
    config,
    dataIndexArgument: 0,
  });
  // The key is the envelope id, passed as its own argument rather than picked with
  // `eventKeyJmesPath: 'id'`: Powertools hashes it the same way (JSON of the value, so records
  // keep their keys) but builds a JMESPath interpreter per lookup, twice per record.
  const runOnce = makeIdempotent(async (_id: string, envelope: Envelope & { payload: Record<string, unknown> }) => {
    const run = () => options.engine.runObservers(envelope.type, envelope.payload);
    await (options.around ? options.around(envelope, run) : run());
    return { ran: true };
  }, once(SingleTableIdempotencyStore.KEY_PREFIX));

  const telemetry = options.telemetry;
  const recordOnce = telemetry
    ? makeIdempotent(async (id: string, payload: Record<string, unknown>) => {
        await telemetry.record(id, payload);
        return { recorded: true };
      }, once(TELEMETRY_KEY_PREFIX))
    : undefined;

  const resolvePayload = async (envelope: Envelope): Promise<Record<string, unknown>> => {
    if (!('payload_ref' in envelope)) return envelope.payload;
    const payload: unknown = JSON.parse(await options.payloads.get(envelope.payload_ref));
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new PayloadFetchError(`envelope ${envelope.id}: offloaded payload is not an object`);
    }
    return payload as Record<string, unknown>;
  };

  const handleRecord = async (record: SQSRecord): Promise<void> => {
    let envelope: Envelope | undefined;
    try {
      envelope = parseEnvelope(record.body);
      const forTelemetry = recordOnce !== undefined && telemetry?.handles(envelope.type) === true;
      const forHooks = !envelope.ran_at_source && options.engine.hasObservers?.(envelope.type) !== false;
      if (!forTelemetry && !forHooks) return; // ran_at_source: its hooks ran where it was emitted
      const payload = await resolvePayload(envelope);
      if (forTelemetry) await recordOnce(envelope.id, payload);
      if (forHooks) await runOnce(envelope.id, { ...envelope, payload });
    } catch (error) {
      const what = envelope ? `observer event ${envelope.id} (${envelope.type})` : `SQS message ${record.messageId}`;
      const receive = record.attributes.ApproximateReceiveCount;
      if (error instanceof IdempotencyAlreadyInProgressError) {
        // SNS and SQS deliver at least once: another copy of this event holds its lock. Not a
        // failure: this copy comes back after the visibility timeout and finds it done (or the
        // lock lapsed with the other invocation's time), so it is not logged as an error.
        logger.warn(`${what} is being handled by another delivery (receive ${receive}); this copy is retried later`);
      } else logger.error(`${what} failed on receive ${receive}: ${errorText(error)}`);
      throw error;
    }
  };

  return async (event, context) => {
    // The in-progress lock lapses with the invocation's time budget (a crash mid-run must not
    // hold the event until the record expires). Locally there is no Lambda context: use the
    // function's timeout.
    const started = Date.now();
    config.registerLambdaContext(
      context ??
        ({ getRemainingTimeInMillis: () => FUNCTION_TIMEOUT_SECONDS.observer * 1000 - (Date.now() - started) } as Context),
    );
    // One processor per invocation: its state is per batch, and local pollers may overlap.
    const processor = new BatchProcessor(EventType.SQS);
    try {
      return await processPartialResponse(event, handleRecord, processor, {
        ...(context ? { context } : {}),
        throwOnFullBatchFailure: false,
      });
    } finally {
      // Metrics of the batch: a failed flush is logged, never a reason to redeliver events.
      await telemetry?.flush().catch((error: unknown) => logger.warn(`telemetry flush failed: ${errorText(error)}`));
    }
  };
}

import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { toSqsRecord } from './sqs-event.ts';
import { PollerDeleteError } from './dev-start-error.ts';
import { errorText } from '../errors/error-text.ts';
import { MAX_LONG_POLL_SECONDS } from '../pipeline/aws-request-timeouts.ts';

export type SqsEventHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface SqsPollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** The queue's ARN for `eventSourceARN`; looked up when absent. */
  queueArn?: string;
  /** `awsRegion` of the records; defaults to the ARN's region. */
  region?: string;
  handler: SqsEventHandler;
  /** Lambda's BatchSize (1–10 for FIFO; larger is gathered over several receives). Default 10. */
  batchSize?: number;
  /** Lambda's MaximumBatchingWindowInSeconds, in ms: how long to gather a batch. Default 0. */
  batchWindowMs?: number;
  /**
   * Long-poll wait of an idle receive (0 to `MAX_LONG_POLL_SECONDS`, 4 s: the data plane's clients give up a
   * socket silent for 5 s, src/pipeline/aws-request-timeouts.ts). Default 1: `stop()` waits for the poll in
   * progress rather than aborting it, because an aborted long poll is still answered by the
   * server, and the messages it took would stay hidden for a whole visibility timeout.
   */
  waitTimeSeconds?: number;
  /** Pollers running side by side (Lambda's concurrency). Default 1. */
  concurrency?: number;
  /** Told about receive/delete failures and handler errors; the poller goes on. */
  onError?: (error: unknown) => void;
}

export interface SqsPoller {
  /** Stops receiving: waits for the poll in progress (≤ waitTimeSeconds) and the batch in hand, releases gathered-but-unhandled messages. */
  stop(): Promise<void>;
  /**
   * Handles what the queue holds, then stops: after the poll in progress, receives without waiting and ends once a
   * receive comes back empty. Messages hidden for a retry are not waited for. `stop()` during a drain ends it sooner.
   */
  drain(): Promise<void>;
}

/**
 * Plays the Lambda SQS event-source mapping for local runs and e2e tests: long-polls the
 * queue, gathers batches (batch size, batching window), hands the handler the exact
 * `SQSEvent` Lambda sends, deletes the records that succeeded and leaves the ones named in
 * `batchItemFailures` (or the whole batch, if the handler throws or names an unknown id)
 * for redelivery after the visibility timeout — so redrive to the DLQ works as in AWS.
 * FIFO: the queue hands out one batch per message group at a time; within a batch, once a
 * record of a group fails, the later records of that group are kept too, so order holds.
 *
 * @example
 * const poller = await startSqsPoller({ sqs, queueUrl: aws.eventsQueueUrl, handler: observerHandler, batchSize: 10, batchWindowMs: 100 });
 * // …
 * await poller.stop();
 */
export async function startSqsPoller(options: SqsPollerOptions): Promise<SqsPoller> {
  const { sqs, queueUrl, handler } = options;
  const queueArn =
    options.queueArn ??
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  const region = options.region ?? queueArn.split(':')[3] ?? 'us-east-1';
  const fifo = queueUrl.endsWith('.fifo') || queueArn.endsWith('.fifo');
  const batchSize = Math.max(1, Math.min(fifo ? 10 : 10_000, options.batchSize ?? 10));
  const batchWindowMs = Math.max(0, options.batchWindowMs ?? 0);
  const waitTimeSeconds = Math.max(0, Math.min(MAX_LONG_POLL_SECONDS, options.waitTimeSeconds ?? 1));
  const onError = options.onError ?? ((error) => process.stderr.write(`hookgate sqs-poller ${queueUrl}: ${errorText(error)}\n`));
  let stopping = false;
  let draining = false;

  const receive = async (max: number, wait: number): Promise<Message[]> => {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(10, max),
        WaitTimeSeconds: wait,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    return out.Messages ?? [];
  };

  /** Gathers one batch: waits for the first message, then fills up until full or the window closes. */
  const gather = async (): Promise<Message[]> => {
    const batch = await receive(batchSize, draining ? 0 : waitTimeSeconds);
    if (batch.length === 0) return batch;
    const deadline = Date.now() + batchWindowMs;
    while (batch.length < batchSize && !stopping) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Long-poll at whole seconds only when the window allows it; otherwise a quick look.
      let more: Message[];
      try {
        more = await receive(
          batchSize - batch.length,
          left >= 1000 ? Math.min(MAX_LONG_POLL_SECONDS, Math.floor(left / 1000)) : 0,
        );
      } catch (error) {
        if (stopping) break; // keep what was gathered: the loop releases it
        throw error;
      }
      if (more.length === 0 && left < 1000) await sleep(Math.min(left, 20));
      batch.push(...more);
    }
    return batch;
  };

  const settle = async (batch: Message[], records: SQSRecord[], response: SQSBatchResponse | void) => {
    const failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    const known = new Set(records.map((r) => r.messageId));
    // Lambda treats an unknown or empty identifier as a failure of the whole batch.
    if ([...failedIds].some((id) => !id || !known.has(id))) return;
    const blockedGroups = new Set<string>();
    const done: Message[] = [];
    for (const [i, record] of records.entries()) {
      const group = record.attributes.MessageGroupId;
      const failed = failedIds.has(record.messageId) || (group !== undefined && blockedGroups.has(group));
      if (failed) {
        if (fifo && group !== undefined) blockedGroups.add(group);
      } else {
        done.push(batch[i]!);
      }
    }
    await deleteMessages(done);
  };

  const deleteMessages = async (messages: Message[]) => {
    for (let i = 0; i < messages.length; i += 10) {
      const chunk = messages.slice(i, i + 10);
      const out = await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: chunk.map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
      if (out.Failed?.length)
        onError(new PollerDeleteError(`delete failed for ${out.Failed.length} message(s): ${out.Failed[0]?.Message}`));
    }
  };

  const release = async (messages: Message[]) => {
    for (let i = 0; i < messages.length; i += 10) {
      const chunk = messages.slice(i, i + 10);
      await sqs
        .send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 })),
          }),
        )
        .catch(onError);
    }
  };

  const loop = async () => {
    let backoffMs = 100;
    while (!stopping) {
      let batch: Message[];
      try {
        batch = await gather();
        backoffMs = 100;
      } catch (error) {
        if (stopping) break;
        onError(error);
        if (draining) break; // a queue that cannot be read now is not drained by waiting on it
        await sleep(backoffMs);
        backoffMs = Math.min(5000, backoffMs * 2);
        continue;
      }
      if (batch.length === 0) {
        if (draining) break;
        continue;
      }
      if (stopping) {
        await release(batch); // received during stop: make it visible again at once
        break;
      }
      const records = batch.map((m) => toSqsRecord(m, queueArn, region));
      let response: SQSBatchResponse | void;
      try {
        response = await handler({ Records: records });
      } catch (error) {
        onError(error); // the whole batch comes back after the visibility timeout
        continue;
      }
      try {
        await settle(batch, records, response);
      } catch (error) {
        onError(error);
      }
    }
  };

  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => loop());
  const ended = () => Promise.all(loops).then(() => undefined);
  return {
    stop() {
      stopping = true;
      return ended();
    },
    drain() {
      draining = true;
      return ended();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { TimerMessageSchema, timerStep } from '../pipeline/timer-message.ts';
import { TurnMessageSchema, UnreadableTurnMessageError } from '../pipeline/turn-message.ts';
import { TURN_GIVEN_UP_REPLY, TURN_MAX_RECEIVE_COUNT } from '../pipeline/topology.ts';
import { resumeTurn, startTurn, type TurnResult } from './turn/run-turn.ts';
import type { TurnRuntimeDeps } from './turn/turn-runtime-deps.ts';
import { withRedactedOutputs } from './turn/redacting-deps.ts';
import { withLogContext } from '../logging/log-context.ts';
import { errorText } from '../errors/error-text.ts';

export type { TurnRuntimeDeps } from './turn/turn-runtime-deps.ts';

/**
 * How long before the Lambda deadline a turn stops calling the model and wraps up (reply,
 * transcript, on_session_end): time enough for those writes.
 */
export const DEADLINE_MARGIN_MS = 10_000;

/**
 * How long a handled delivery is remembered: beyond the turns queue's retention (4 days), so
 * that no redelivery of a handled message can outlive its record.
 */
export const HANDLED_DELIVERY_TTL_SECONDS = 5 * 86_400;

/** Called after each record, for logs and tests. */
export type TurnObserver = (result: TurnResult | { outcome: 'timer'; forwarded: boolean }) => void;

/**
 * The turn λ's handler: consumes the FIFO turns queue (batch size 1 in the stack: one turn
 * per conversation at a time) and the standard timers queue. A timer that is due goes to
 * the turns queue in its session's group; an early one is re-delayed. A `message` starts a
 * turn (unless `deps.handled` says its delivery's turn already ended: SQS delivered it again),
 * an `approval` resumes a suspended one. A body it cannot read (a newer gateway's, during a
 * deploy) and an error while running are batch item failures, so SQS
 * retries it and, after TURN_MAX_RECEIVE_COUNT receives, moves it to the DLQ — a turn message
 * failing on its last receive first gets the chat an apology (TURN_GIVEN_UP_REPLY). Records are processed one
 * after another and a failure stops the rest of the batch (FIFO order).
 *
 * @example
 * export const handler = createTurnHandler({ engine, logger, transport, sessions, transcripts, approvals, timers, turns, replier });
 */
export function createTurnHandler(
  baseDeps: TurnRuntimeDeps,
  onResult?: TurnObserver,
): (event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>) => Promise<SQSBatchResponse> {
  /** Logged here (the batch response only names the record), then left to SQS: retried, then the DLQ. */
  const unreadable = (message: string) => {
    baseDeps.logger.error(`${message}; left for a retry and then the turns DLQ (hookgate dlq)`);
    return new UnreadableTurnMessageError(message);
  };
  const handleRecord = async (record: SQSRecord, deps: TurnRuntimeDeps): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      throw unreadable(`turn queue: message ${record.messageId} is not JSON`);
    }
    // Told apart by kind first: a failed parse builds every issue's message, and most bodies are turns.
    if ((body as { kind?: unknown } | null)?.kind === 'timer') {
      const timer = TimerMessageSchema.safeParse(body);
      if (!timer.success) {
        const issue = timer.error.issues[0];
        throw unreadable(
          `turn queue: message ${record.messageId} is not a timer message (${issue?.path.join('.')}: ${issue?.message})`,
        );
      }
      const step = timerStep(timer.data, deps.now?.() ?? new Date());
      if (step.due) await deps.turns.send(step.message);
      else await deps.timers.resend(timer.data, step.delaySeconds);
      onResult?.({ outcome: 'timer', forwarded: step.due });
      return;
    }
    const message = TurnMessageSchema.safeParse(body);
    if (!message.success) {
      const issue = message.error.issues[0];
      throw unreadable(
        `turn queue: message ${record.messageId} is not a turn message (${issue?.path.join('.')}: ${issue?.message})`,
      );
    }
    const data = message.data;
    // Every log line of the turn names its delivery and chat (startTurn / resumeTurn add the turn id).
    const labels =
      data.kind === 'message'
        ? { delivery_id: data.delivery_id, chat_id: data.event.source.chat_id, platform: data.event.source.platform }
        : { delivery_id: data.delivery_id, platform: data.session_key.split(':')[0] };
    const result: TurnResult = await withLogContext(labels, async () => {
      // A resume has its own guard (the approval records that it was resumed); a message has this one.
      const handled = data.kind === 'message' ? deps.handled : undefined;
      let outcome: TurnResult;
      try {
        if (handled && (await handled.wasHandled(data.delivery_id))) {
          deps.logger.info(`turn queue: message ${record.messageId} came again after its turn ended; not run again`);
          return { turn_id: '', outcome: 'ignored', reason: 'already handled' } satisfies TurnResult;
        }
        outcome = data.kind === 'message' ? await startTurn(deps, data) : await resumeTurn(deps, data);
      } catch (error) {
        // Left for SQS to retry (then the DLQ); said here, since the batch response only names the record.
        // The stack, not just errorText: a turn that fails on every receive is a bug to find.
        const receives = Number(record.attributes?.ApproximateReceiveCount ?? '1');
        deps.logger.error(
          `turn queue: message ${record.messageId} (${data.kind}, ${data.session_key}) failed on receive ${receives} of ${TURN_MAX_RECEIVE_COUNT}: ${(error as Error)?.stack ?? errorText(error)}`,
        );
        // The last receive: SQS moves it to the turns DLQ next; the chat hears so rather than silence.
        if (data.kind === 'message' && receives >= TURN_MAX_RECEIVE_COUNT) {
          await deps.replier.send(data.event.reply, TURN_GIVEN_UP_REPLY).catch((sendError: unknown) => {
            deps.logger.error(
              `turn queue: the apology for message ${record.messageId} could not be sent: ${errorText(sendError)}`,
            );
          });
        }
        throw error;
      }
      deps.logger.info(`turn ${outcome.turn_id || '-'}: ${outcome.outcome}`);
      // The reply has gone: failing to record that must not make SQS run the turn again.
      await handled?.markHandled(data.delivery_id, HANDLED_DELIVERY_TTL_SECONDS).catch((error: unknown) => {
        deps.logger.error(
          `turn queue: could not record delivery ${data.delivery_id} as handled (a redelivery would run it again): ${errorText(error)}`,
        );
      });
      return outcome;
    });
    onResult?.(result);
  };
  return async (event, context) => {
    // In Lambda the invocation has a deadline; a turn cut off by it would be redelivered and run again.
    const remainingMs = context?.getRemainingTimeInMillis?.();
    // Replies, transcripts and traces leave redacted (built per invocation, from the deps as they are now).
    const deps = withRedactedOutputs(
      remainingMs === undefined
        ? baseDeps
        : { ...baseDeps, signal: AbortSignal.timeout(Math.max(1_000, remainingMs - DEADLINE_MARGIN_MS)) },
    );
    const processor = new SqsFifoPartialProcessorAsync();
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, deps), processor, {
      throwOnFullBatchFailure: false,
    });
  };
}

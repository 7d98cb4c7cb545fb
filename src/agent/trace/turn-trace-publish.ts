import { performance } from 'node:perf_hooks';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { TURN_TRACE_EVENT, type TurnTracePayload } from '../../telemetry/turn-trace-event.ts';
import type { TurnHooks } from '../turn/turn-hooks.ts';
import type { TurnState } from '../turn/turn-state.ts';
import { errorText } from '../../errors/error-text.ts';

/** What one invocation of a turn was, beside its operations. */
export interface TurnInvocationSummary {
  state: TurnState;
  resumed: boolean;
  /** The model transport's provider (`openai-compatible`, `hookgate-local`). */
  provider: string;
  /** `Date` when the invocation started, and `performance.now()` then (for its duration). */
  startedAt: Date;
  startedPerf: number;
  outcome: string;
  /** The reply text, when the turn produced one (kept only with telemetry.capture_content). */
  response?: string;
}

/**
 * Publishes the invocation's `hookgate:turn_trace` event (telemetry/turn-trace-event.ts) through
 * the engine's observer sink, after the reply: the observer side turns it into spans and
 * metrics. A failure is logged and swallowed — telemetry never fails a turn.
 *
 * @example
 * await publishTurnTrace(hooks, { state, resumed: false, provider, startedAt, startedPerf, outcome: 'completed' }, logger);
 */
export async function publishTurnTrace(hooks: TurnHooks, summary: TurnInvocationSummary, logger: HookLogger): Promise<void> {
  const { state } = summary;
  const capture = hooks.spans.captureContent;
  const payload: TurnTracePayload = {
    turn_id: state.turn_id,
    session_id: state.session_id,
    platform: state.platform,
    ...(state.chat_id ? { chat_id: state.chat_id } : {}),
    model: state.model,
    provider: summary.provider,
    resumed: summary.resumed,
    started_at: summary.startedAt.toISOString(),
    duration_ms: Math.round((performance.now() - summary.startedPerf) * 1000) / 1000,
    outcome: summary.outcome,
    undelivered_replies: hooks.trace.filter((record) => record.hook === 'reply' && record.decision.startsWith('undelivered: '))
      .length,
    ...(capture && !summary.resumed ? { input_text: state.user_message } : {}),
    ...(capture && summary.response ? { output_text: summary.response } : {}),
    operations: hooks.spans.operations,
  };
  try {
    await hooks.engine.observe(TURN_TRACE_EVENT, payload, { session_id: state.session_id, turn_id: state.turn_id });
  } catch (error) {
    logger.warn(`turn ${state.turn_id}: its ${TURN_TRACE_EVENT} event could not be published: ${errorText(error)}`);
  }
}

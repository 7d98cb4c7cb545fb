import { annotateLogContext } from '../../logging/log-context.ts';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageEvent } from '../../messaging/message-event.ts';
import type { TurnMessage } from '../../pipeline/turn-message.ts';
import type { AnsweredApproval, ApprovalChoice, GrantScope, PendingApproval } from '../../store/approval-store.ts';
import type { TranscriptMessage, TranscriptRange } from '../../store/transcript-store.ts';
import { approvalHookKwargs } from '../approvals/approval-hook-kwargs.ts';
import { approvalRequestText } from '../approvals/approval-request-text.ts';
import { chatApprovalGate } from '../approvals/chat-approval-gate.ts';
import { selectToolSandbox } from '../sandbox/select-tool-sandbox.ts';
import { permissionRequestHooks } from '../approvals/permission-request-hooks.ts';
import type { ToolSandbox } from '../sandbox/tool-sandbox.ts';
import { BUILTIN_TOOLS } from '../tools/tool-set.ts';
import { DEFAULT_TOOL_POLICY } from '../tools/tool-policy.ts';
import { ALL_TOOLS } from '../../config/chat-tool-sets.ts';
import type { DelegateRunner } from '../tools/delegate-task.ts';
import { runChildAgent } from '../tools/run-child-agent.ts';
import { DEFAULT_MAX_ITERATIONS, runAgentLoop, type AgentLoopDeps, type LoopOutcome } from './agent-loop.ts';
import { promptBlockMessage } from '../../hooks/aggregate/index.ts';
import { hookAnswer } from '../../hooks/catalogue.ts';
import { DEFAULT_HISTORY_WINDOW, fitHistoryWindow } from './history-window.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { firstCharacters } from '../../hooks/first-characters.ts';
import { TurnHooks } from './turn-hooks.ts';
import type { TurnRuntimeDeps } from './turn-runtime-deps.ts';
import { TurnStateSchema, type TurnState } from './turn-state.ts';
import { keepUndeliveredReply } from './undelivered-reply.ts';
import { logExcerpt } from '../../secrets/log-excerpt.ts';
import { takeInAttachments } from '../attachments/take-in-attachments.ts';
import { attachmentsForHooks, recordAttachmentRefusal } from '../attachments/attachments-for-hooks.ts';
import { inlineImages } from '../attachments/user-content.ts';
import type { ContentPart } from '../model/chat-wire.ts';
import { performance } from 'node:perf_hooks';
import { publishTurnTrace, type TurnInvocationSummary } from '../trace/turn-trace-publish.ts';
import { errorText } from '../../errors/error-text.ts';
import { EVENTS_GRACE_MS, settlesInTime } from './settles-in-time.ts';

type MessageTurn = Extract<TurnMessage, { kind: 'message' }>;
type ApprovalTurn = Extract<TurnMessage, { kind: 'approval' }>;

/** How one handler invocation of a turn ended. */
export type TurnResult =
  | { turn_id: string; outcome: 'completed' | 'interrupted' | 'exhausted' | 'failed' | 'blocked'; response: string }
  | { turn_id: string; outcome: 'suspended'; approval_id: string }
  | { turn_id: string; outcome: 'ignored'; reason: string };

export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;

/**
 * Runs a new turn for a user message (hook-semantics §1, §2.4): session hooks, agent:start,
 * pre_llm_call once, the tool loop, then either the end of the turn or a suspension for an
 * approval. The transcript is stored and the reply sent through the Replier.
 *
 * @example
 * const result = await startTurn(deps, turnMessage); // { turn_id, outcome: 'completed', response }
 */
export async function startTurn(deps: TurnRuntimeDeps, message: MessageTurn): Promise<TurnResult> {
  const startedPerf = performance.now();
  const now = deps.now?.() ?? new Date();
  const { event } = message;
  const source = event.source;
  const { session, created, expired } = await deps.sessions.resolve(
    message.session_key,
    {
      platform: source.platform,
      chat_id: source.chat_id,
      thread_id: source.thread_id,
      user_id: source.user_id,
      chat_type: source.chat_type,
    },
    { ...(deps.sessionIdleSeconds !== undefined ? { idleSeconds: deps.sessionIdleSeconds } : {}), now },
  );
  const turnId = `turn_${randomUUID()}`;
  annotateLogContext({ turn_id: turnId });
  // Whose turn this is: /stop from anyone else (not an approver) is refused. Written while the
  // turn takes in its attachments and loads its history (one round trip less per turn), and
  // awaited before anything leaves the turn: the refusal reply or the first model call.
  // The same write claims the session's first run for this delivery (true: this turn fires the
  // session's start hooks; a turn that runs while the first waits for an approval is not it).
  const turnNoted = deps.sessions.noteTurnStarted(
    message.session_key,
    session.session_id,
    { turn_id: turnId, platform: source.platform, user_id: source.user_id, started_at: now.toISOString() },
    message.delivery_id,
  );
  // Awaited with the history, or before a refusal's reply; this only keeps a failure from counting
  // as unhandled meanwhile (or at all, on a path that fails before either).
  turnNoted.catch(() => {});
  const endInFlight = deps.turnsInFlight?.begin({
    turn_id: turnId,
    session_key: message.session_key,
    session_id: session.session_id,
  });
  const hooks = new TurnHooks(deps.engine, deps.logger, { session_id: session.session_id, turn_id: turnId });
  const model = deps.transport.model;
  const platform = source.platform;
  const state: TurnState = {
    v: 1,
    turn_id: turnId,
    task_id: session.session_id,
    session_id: session.session_id,
    session_key: message.session_key,
    platform,
    user_id: source.user_id,
    chat_id: source.chat_id,
    model,
    reply: event.reply,
    started_at: now.toISOString(),
    user_message: event.text,
    injected_context: null,
    messages: [{ role: 'user', content: event.text }],
    iteration: 0,
    api_call_count: 0,
    pending_calls: [],
    step_tools: [],
    agent_start: agentStartContext(event, session.session_id),
  };
  let reachedLoop = false;
  let refused = false;
  const summary: TurnInvocationSummary = {
    state,
    resumed: false,
    provider: deps.transport.provider,
    startedAt: now,
    startedPerf,
    outcome: 'failed',
  };
  try {
    if (expired) {
      await hooks.observe('on_session_finalize', {
        session_id: expired.session_id,
        platform: expired.platform,
        reason: 'session_expired',
      });
    }
    // After the gateway's 2xx (and after an expired session was finalized, which a refusal must not skip): the bytes are fetched here, through each platform's API.
    const intake = await takeInAttachments(event.attachments ?? [], session.session_id, deps.attachments ?? {}, deps.signal);
    if (intake.kind === 'refused') {
      // Refused before the agent ran: the session's first run is still to come.
      if (await turnNoted) await deps.sessions.releaseFirstRun(message.session_key, session.session_id, message.delivery_id);
      refused = true;
      recordAttachmentRefusal(hooks, intake.reason);
      await sendReply(deps, hooks, state, intake.reply);
      return { turn_id: turnId, outcome: 'ignored', reason: `attachment refused: ${intake.reason}` };
    }
    if (intake.attachments.length > 0) state.messages[0] = { role: 'user', content: event.text, attachments: intake.attachments };
    const [{ history, stored, range }, firstRun] = await Promise.all([loadHistory(deps, session.session_id), turnNoted]);
    hooks.traceHistoryByReference(history, range);
    // §2.4 and §1.13: once per new session or reset, by the turn that holds its first run. Its
    // `fresh` flag and empty record stay until a turn is recorded, which a first turn suspended
    // for an approval is not: the chat's next message runs meanwhile and must not fire them again.
    if ((created || session.fresh) && firstRun) {
      await hooks.observe('session:start', {
        platform,
        user_id: source.user_id,
        session_id: session.session_id,
        session_key: message.session_key,
      });
    }
    // agent:start just before the agent runs (§2.4); on_session_start inside the run, as its system prompt is built (§1.13).
    await hooks.observe('agent:start', { ...state.agent_start });
    if (session.turn_count === 0 && !stored && firstRun) {
      await hooks.observe('on_session_start', { session_id: session.session_id, model, platform });
    }
    const results = await hooks.decide('pre_llm_call', {
      session_id: session.session_id,
      task_id: state.task_id,
      turn_id: turnId,
      user_message: event.text,
      conversation_history: [...history, ...state.messages],
      is_first_turn: !stored,
      model,
      platform,
      sender_id: source.user_id ?? '',
      // Only for a message with attachments, so that other turns' kwargs stay as §1.9 lists them.
      ...(intake.attachments.length > 0
        ? { attachments: await attachmentsForHooks(intake.attachments, deps.attachments?.store, deps.logger) }
        : {}),
    });
    state.injected_context = guarded(() => hookAnswer('pre_llm_call', results).context) ?? null;
    reachedLoop = true;
    const blocked = guarded(() => promptBlockMessage(results));
    if (blocked !== undefined) return noteResult(summary, await endBlockedTurn(deps, hooks, state, blocked));
    return noteResult(summary, await continueTurn(deps, hooks, state, history));
  } finally {
    try {
      // on_session_end closes every run, also one that failed before its loop (continueTurn fires it otherwise).
      if (!reachedLoop && !refused)
        await fireSessionEnd(hooks, state, { kind: 'failed', error: 'the turn failed before its loop' });
      await finishInvocation(deps, hooks, summary);
    } finally {
      endInFlight?.();
    }
  }
}

/**
 * Resumes a turn suspended for an approval, in a new invocation: the answer (or the
 * timeout) fires post_approval_response, `session`/`always` grants are remembered, and the
 * tool loop goes on from the persisted state. A timeout for an approval that was already
 * answered is a no-op.
 *
 * @example
 * await resumeTurn(deps, { v: 1, kind: 'approval', approval_id, choice: 'once', … });
 */
export async function resumeTurn(deps: TurnRuntimeDeps, message: ApprovalTurn): Promise<TurnResult> {
  const startedPerf = performance.now();
  const startedAt = deps.now?.() ?? new Date();
  const record = await deps.approvals.get(message.approval_id);
  if (!record) return { turn_id: '', outcome: 'ignored', reason: `no approval ${message.approval_id}` };
  annotateLogContext({ turn_id: record.turn_id });
  // A redelivered resume after the resumed turn finished. Recorded on the approval itself, not
  // inferred from the transcript: tool-call ids are the model's and may repeat across turns.
  if (record.resumed_at !== undefined) {
    return {
      turn_id: record.turn_id,
      outcome: 'ignored',
      reason: message.choice === 'timeout' ? 'already answered' : 'already resumed',
    };
  }
  let answer: AnsweredApproval;
  if (message.choice === 'timeout') {
    // The timer races the user's answer; the store's first answer wins.
    const won = await deps.approvals.answer(message.approval_id, 'timeout', deps.now?.() ?? new Date());
    if (!won) return { turn_id: record.turn_id, outcome: 'ignored', reason: 'already answered' };
    answer = { ...record, choice: 'timeout' };
  } else if (record.choice) {
    answer = record;
  } else {
    const by = {
      ...(message.answered_by !== undefined ? { answered_by: message.answered_by } : {}),
      ...(message.global ? { global: true } : {}),
    };
    await deps.approvals.answer(message.approval_id, message.choice, deps.now?.() ?? new Date(), by);
    // Whose answer won (this one, or one recorded since): the item alone, the state is in hand.
    const recorded = await deps.approvals.summary(message.approval_id);
    answer = recorded ? { ...recorded, state: record.state } : { ...record, ...by, choice: message.choice };
  }
  const choice: ApprovalChoice = answer.choice ?? message.choice;
  const parsed = TurnStateSchema.safeParse(record.state);
  if (!parsed.success) {
    deps.logger.error(`approval ${record.approval_id}: the suspended turn's state is unreadable; the turn cannot resume`);
    return { turn_id: record.turn_id, outcome: 'ignored', reason: 'unreadable state' };
  }
  const state = parsed.data;
  annotateLogContext({ chat_id: chatIdOf(state) });
  const { history, range } = await loadHistory(deps, state.session_id);
  const hooks = new TurnHooks(deps.engine, deps.logger, { session_id: state.session_id, turn_id: state.turn_id });
  hooks.traceHistoryByReference(history, range);
  const resumedAt = (deps.now?.() ?? new Date()).toISOString();
  await deps.sessions.noteTurnStarted(state.session_key, state.session_id, {
    turn_id: state.turn_id,
    platform: state.platform,
    user_id: state.user_id,
    started_at: resumedAt,
  });
  const endInFlight = deps.turnsInFlight?.begin({
    turn_id: state.turn_id,
    session_key: state.session_key,
    session_id: state.session_id,
  });
  const summary: TurnInvocationSummary = {
    state,
    resumed: true,
    provider: deps.transport.provider,
    startedAt,
    startedPerf,
    outcome: 'failed',
  };
  try {
    await hooks.observe('post_approval_response', { ...approvalHookKwargs(record), choice });
    if (choice === 'session' || choice === 'always') {
      const scope: GrantScope =
        choice === 'session'
          ? { kind: 'session', session_id: state.session_id }
          : answer.global
            ? { kind: 'global' }
            : { kind: 'chat', platform: record.requested_by.platform, chat_id: record.requested_by.chat_id };
      for (const key of record.pattern_keys) await deps.approvals.grant(scope, key);
    }
    const result = await continueTurn(deps, hooks, state, history, { choice });
    await deps.approvals.markResumed(record.approval_id, deps.now?.() ?? new Date());
    return noteResult(summary, result);
  } finally {
    try {
      await finishInvocation(deps, hooks, summary);
    } finally {
      endInFlight?.();
    }
  }
}

async function continueTurn(
  deps: TurnRuntimeDeps,
  hooks: TurnHooks,
  state: TurnState,
  history: readonly TranscriptMessage[],
  resume?: { choice: ApprovalChoice },
): Promise<TurnResult> {
  let outcome: LoopOutcome = { kind: 'failed', error: 'the turn did not finish' };
  let suspended = false;
  const sessionEnd = onceSessionEnd(hooks, state);
  try {
    const loopDeps = { ...loopDepsFor(deps, hooks, state, history), images: await currentImages(deps, state) };
    outcome = await runAgentLoop(loopDeps, state, resume);
    if (outcome.kind === 'suspended') {
      suspended = true;
      return await suspend(deps, hooks, state, outcome);
    }
    const ended = outcome;
    return await endTurn(deps, hooks, state, history, outcome, () => sessionEnd(ended));
  } finally {
    if (!suspended) await sessionEnd(outcome);
  }
}

/**
 * `on_session_end`, fired at most once: where the run ends, just before `agent:end` (§1.13: at
 * the very end of the agent run, whose result `agent:end` then reports, §2.4), or by the
 * caller's `finally` when the turn failed before getting there.
 */
function onceSessionEnd(hooks: TurnHooks, state: TurnState): (outcome: LoopOutcome) => Promise<void> {
  let fired = false;
  return async (outcome) => {
    if (fired) return;
    fired = true;
    await fireSessionEnd(hooks, state, outcome);
  };
}

/** The current message's images for the model; one that cannot be read back stays a note. */
async function currentImages(deps: TurnRuntimeDeps, state: TurnState): Promise<ContentPart[]> {
  const first = state.messages[0];
  if (first?.role !== 'user' || !first.attachments?.length) return [];
  try {
    return await inlineImages(first.attachments, deps.attachments?.store);
  } catch (error) {
    deps.logger.warn(
      `turn ${state.turn_id}: the attached images could not be read back; the model gets their notes only: ${logExcerpt(errorText(error))}`,
    );
    return [];
  }
}

/** §1.13 on_session_end: at the very end of every run, whatever the outcome. */
function fireSessionEnd(hooks: TurnHooks, state: TurnState, outcome: LoopOutcome): Promise<void> {
  return hooks.observe('on_session_end', {
    session_id: state.session_id,
    task_id: state.task_id,
    turn_id: state.turn_id,
    completed: outcome.kind === 'final',
    interrupted: outcome.kind === 'interrupted',
    model: state.model,
    platform: state.platform,
  });
}

function loopDepsFor(
  deps: TurnRuntimeDeps,
  hooks: TurnHooks,
  state: TurnState,
  history: readonly TranscriptMessage[],
): AgentLoopDeps {
  const since = new Date(state.started_at);
  const base = {
    transport: deps.transport,
    systemPrompt: SYSTEM_PROMPT,
    sandbox: deps.sandbox ?? defaultSandbox(deps),
    workspaceSession: { sessionId: state.session_id },
    maxIterations: deps.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    ...(deps.stopReadReuseMs !== undefined ? { stopReadReuseMs: deps.stopReadReuseMs } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    // Looked up per invocation: a resumed turn and its delegated children get the chat's set as it is now.
    toolSet: (deps.toolSets ?? { forChat: () => ALL_TOOLS }).forChat(state.platform, chatIdOf(state)),
    stopRequested: () => deps.sessions.stopRequested(state.session_key, since, state.turn_id),
  };
  const gate = chatApprovalGate(
    deps.approvals,
    { platform: state.platform, chat_id: chatIdOf(state) },
    permissionRequestHooks(hooks, state.session_key),
  );
  const delegate: DelegateRunner = (child) =>
    runChildAgent({
      ...base,
      hooks: hooks.engine,
      parentTrace: hooks.trace,
      parentSpans: hooks.spans,
      logger: deps.logger,
      gate,
      state,
      child,
    });
  return { ...base, hooks, tools: deps.tools ?? BUILTIN_TOOLS, history, approvals: gate, delegate };
}

async function endTurn(
  deps: TurnRuntimeDeps,
  hooks: TurnHooks,
  state: TurnState,
  history: readonly TranscriptMessage[],
  outcome: Exclude<LoopOutcome, { kind: 'suspended' }>,
  endSession: () => Promise<void>,
): Promise<TurnResult> {
  let response = '';
  let replyText: string;
  if (outcome.kind === 'final' && outcome.response !== '') {
    response = outcome.response;
    const results = await hooks.decide('transform_llm_output', {
      response_text: response,
      session_id: state.session_id,
      model: state.model,
      platform: state.platform,
    });
    response = guarded(() => hookAnswer('transform_llm_output', results).response_text) ?? response;
    await hooks.observe('post_llm_call', {
      session_id: state.session_id,
      task_id: state.task_id,
      turn_id: state.turn_id,
      user_message: state.user_message,
      assistant_response: response,
      conversation_history: [...history, ...state.messages],
      model: state.model,
      platform: state.platform,
    });
    replyText = response;
  } else if (outcome.kind === 'interrupted') {
    replyText = '⏹ Stopped.';
  } else if (outcome.kind === 'exhausted') {
    replyText = `I stopped after ${deps.maxIterations ?? DEFAULT_MAX_ITERATIONS} steps without a final answer.`;
  } else if (outcome.kind === 'failed') {
    replyText = `Sorry, the model could not be reached (${outcome.error}).`;
  } else {
    replyText = '(no response)';
  }
  // Independent items: written side by side, both before the reply.
  await Promise.all([
    deps.transcripts.append(state.session_id, state.messages),
    deps.sessions.recordTurn(state.session_key, state.session_id, state.turn_id, deps.now?.() ?? new Date()),
  ]);
  // A turn stopped by /new or /reset belongs to a session the chat has left, which
  // "✨ New session started." answered: no "⏹ Stopped." into the new one (a turn suspended for
  // an approval is stopped only when its timer fires, minutes later).
  const left =
    outcome.kind === 'interrupted' && (await deps.sessions.current(state.session_key))?.session_id !== state.session_id;
  if (!left) await sendReply(deps, hooks, state, replyText);
  await endSession();
  await hooks.observe('agent:end', { ...state.agent_start, response: firstCharacters(response, 500) });
  const kind = outcome.kind === 'final' ? 'completed' : outcome.kind;
  return { turn_id: state.turn_id, outcome: kind, response };
}

/**
 * A turn whose prompt a hook blocked (Claude Code's UserPromptSubmit block): no model call,
 * the reason is the reply, and the prompt is not kept in the transcript.
 */
async function endBlockedTurn(deps: TurnRuntimeDeps, hooks: TurnHooks, state: TurnState, message: string): Promise<TurnResult> {
  const sessionEnd = onceSessionEnd(hooks, state);
  const blocked: LoopOutcome = { kind: 'failed', error: 'the prompt was blocked' };
  try {
    await deps.sessions.recordTurn(state.session_key, state.session_id, state.turn_id, deps.now?.() ?? new Date());
    await sendReply(deps, hooks, state, message);
    await sessionEnd(blocked);
    await hooks.observe('agent:end', { ...state.agent_start, response: '' });
    return { turn_id: state.turn_id, outcome: 'blocked', response: '' };
  } finally {
    await sessionEnd(blocked);
  }
}

async function suspend(
  deps: TurnRuntimeDeps,
  hooks: TurnHooks,
  state: TurnState,
  outcome: Extract<LoopOutcome, { kind: 'suspended' }>,
): Promise<TurnResult> {
  const now = deps.now?.() ?? new Date();
  const timeout = deps.approvalTimeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS;
  const approval: PendingApproval = {
    approval_id: `approval_${randomUUID()}`,
    session_key: state.session_key,
    session_id: state.session_id,
    turn_id: state.turn_id,
    command: outcome.command,
    description: outcome.match.description,
    pattern_key: outcome.match.pattern_key,
    pattern_keys: outcome.match.pattern_keys,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + timeout * 1000).toISOString(),
    requested_by: { platform: state.platform, chat_id: chatIdOf(state), user_id: state.user_id },
    state: TurnStateSchema.parse(state),
  };
  await deps.approvals.putPending(approval);
  await hooks.observe('pre_approval_request', approvalHookKwargs(approval));
  await sendReply(deps, hooks, state, approvalRequestText(approval, timeout));
  await deps.timers.schedule(
    {
      v: 1,
      kind: 'approval',
      delivery_id: `${approval.approval_id}:timeout`,
      session_key: state.session_key,
      received_at: now.toISOString(),
      approval_id: approval.approval_id,
      choice: 'timeout',
    },
    timeout,
    now,
  );
  return { turn_id: state.turn_id, outcome: 'suspended', approval_id: approval.approval_id };
}

/** §2.4 agent:start context, key order as the spec lists it. */
function agentStartContext(event: MessageEvent, sessionId: string): Record<string, unknown> {
  return {
    platform: event.source.platform,
    user_id: event.source.user_id,
    chat_id: event.source.chat_id ?? '',
    thread_id: event.source.thread_id ?? '',
    chat_type: event.source.chat_type ?? '',
    session_id: sessionId,
    message: firstCharacters(event.text, 500),
  };
}

async function sendReply(deps: TurnRuntimeDeps, hooks: TurnHooks, state: TurnState, text: string): Promise<void> {
  try {
    await deps.replier.send(state.reply, text);
  } catch (error) {
    deps.logger.error(`turn ${state.turn_id}: the reply could not be sent: ${logExcerpt(errorText(error))}`);
    // The replier has retried already; the reply is kept, not lost (trace + reply:undelivered).
    await keepUndeliveredReply(hooks, state.reply, text, error);
  }
}

async function finishInvocation(deps: TurnRuntimeDeps, hooks: TurnHooks, summary: TurnInvocationSummary): Promise<void> {
  // Neither step waits past the deadline's grace: the reply may have gone, and the delivery must
  // still be recorded as handled before Lambda cuts the invocation off (or SQS runs it again).
  const late = (what: string) =>
    deps.logger.warn(
      `turn ${hooks.meta.turn_id}: ${what} ${EVENTS_GRACE_MS} ms past the invocation's deadline; it ends without waiting for it`,
    );
  // Every event handed over first: their trace records and spans are complete only then. Those
  // still in flight when the wait is given up are marked so in both, not left as emitted.
  const left = await hooks.flushBy(deps.signal, EVENTS_GRACE_MS);
  if (left !== undefined) late(`${left} observer event(s) were still being handed over`);
  const traces = deps.traces;
  const stored =
    traces && hooks.trace.length > 0
      ? traces.append(hooks.trace, hooks.meta.session_id).catch((error: unknown) => {
          deps.logger.warn(`turn ${hooks.meta.turn_id}: the hook trace could not be stored: ${errorText(error)}`);
        })
      : undefined;
  // Side by side with the stored trace (neither reads the other), after the reply: the
  // observer side makes spans and metrics of the turn-trace event.
  const last = Promise.all([stored, publishTurnTrace(hooks, summary, deps.logger)]);
  if (!(await settlesInTime(last, deps.signal, EVENTS_GRACE_MS))) late('its trace was still being stored or published');
}

/** Notes how the invocation ended (and its reply) for the turn-trace event. */
function noteResult(summary: TurnInvocationSummary, result: TurnResult): TurnResult {
  summary.outcome = result.outcome;
  if ('response' in result && result.response !== '') summary.response = result.response;
  return result;
}

function guarded<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The source chat of a turn (states stored before it was recorded: the `agent:start` context's). */
function chatIdOf(state: TurnState): string {
  return state.chat_id ?? String(state.agent_start.chat_id ?? state.reply.chat_id);
}

/**
 * The part of the session's stored conversation this turn sends to the model (history-window.ts),
 * whether anything is stored at all, and where that part is in the transcript: the turn's trace
 * records name the range instead of copying the history into every call's kwargs.
 */
async function loadHistory(
  deps: TurnRuntimeDeps,
  sessionId: string,
): Promise<{ history: TranscriptMessage[]; stored: boolean; range?: TranscriptRange }> {
  const window = deps.historyWindow ?? DEFAULT_HISTORY_WINDOW;
  const recent = await deps.transcripts.loadRecent(sessionId, window);
  const history = fitHistoryWindow(recent.messages, window);
  const seqs = recent.seqs.slice(recent.seqs.length - history.length);
  const range: TranscriptRange | undefined =
    history.length > 0 ? { session_id: sessionId, from_seq: seqs[0]!, to_seq: seqs.at(-1)!, count: history.length } : undefined;
  return { history, stored: recent.messages.length > 0, ...(range ? { range } : {}) };
}

/** Without a sandbox from the composition root: the configured one on this machine (bwrap where it runs, else refused). */
function defaultSandbox(deps: TurnRuntimeDeps): ToolSandbox {
  return selectToolSandbox({
    host: 'local',
    config: deps.toolPolicy ?? DEFAULT_TOOL_POLICY,
    workspaceRoot: deps.workspaceRoot ?? join(tmpdir(), 'hookgate-workspaces'),
  }).sandbox;
}

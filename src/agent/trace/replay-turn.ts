import { Readable } from 'node:stream';
import * as z from '../../validation/zod.ts';
import { createHookEngine, type LoadedHookEngine } from '../../hooks/create-hook-engine.ts';
import { errorText } from '../../errors/error-text.ts';
import { fitsKwargsOf, isCallableHookName, type CallableHookName, type KwargsOf } from '../../hooks/catalogue.ts';
import type { HookEngine, InvokeOptions } from '../../hooks/hook-engine.ts';
import { argsValidator } from '../tools/args-validator.ts';
import { BUILTIN_TOOLS } from '../tools/tool-set.ts';
import { createMemoryLogger } from '../../hooks/hook-logger.ts';
import type { TraceRecord } from '../../store/trace-store.ts';
import type { SequencedMessages, TranscriptRange, TranscriptStore } from '../../store/transcript-store.ts';
import { decisionDigest } from './decision-digest.ts';
import { DECISION_HOOKS, decisionChange, describeDecision } from './describe-decision.ts';
import { collectHookRuns, hookRunsWanted, recordHookRun } from './hook-run-scope.ts';
import { escapeControlCharacters } from '../../logging/escape-control-characters.ts';

/** One callback of a call, as it decided. */
export interface ReplayedCallback {
  source: string;
  callback: string;
  decision: string;
}

/** One decision-hook call of a recorded turn, run again. */
export interface ReplayedCall {
  hook: string;
  /** When the recorded call started. */
  at: string;
  /** `same`, `differs`, or `not-replayable` (its kwargs were cut, or not recorded). */
  status: 'same' | 'differs' | 'not-replayable';
  /** The recorded call's decision (all its callbacks aggregated). */
  before: string;
  /** The decision of the hooks home as it is now; null when not replayed. */
  now: string | null;
  /** What differs (`allow → block: …`, `context changed`, `transform changed`), or why it was not replayed. */
  note?: string;
  callbacks_before: ReplayedCallback[];
  callbacks_now: ReplayedCallback[];
}

/** A recorded turn's decision-hook calls replayed against the hooks home as it is now. */
export interface TurnReplay {
  turn_id: string;
  home: string;
  calls: ReplayedCall[];
  /** Observer calls of the turn: they decide nothing, so they are not replayed. */
  observer_calls: number;
  differs: number;
  not_replayable: number;
  /** 0 = every call decides as before, 1 = at least one differs, 2 = turn unknown or a call not replayable. */
  exit_code: 0 | 1 | 2;
}

/** Kwargs as a trace keeps them: a JSON object. */
const RecordedKwargs = z.record(z.string(), z.unknown());

/** Consent never prompts during a replay: an unapproved shell hook stays off, as it would in the turn. */
const NO_PROMPT = { input: Readable.from([]), output: process.stdout };

/**
 * The hooks home as it is now, loaded afresh (plugins imported again, shell-hook consent read
 * from the home's allowlist, no prompt), for {@link replayTurn}: what its hooks print is kept
 * out of the caller's output.
 *
 * @example
 * const engine = await loadReplayEngine('/home/me/.hermes');
 */
export function loadReplayEngine(home: string): Promise<LoadedHookEngine> {
  return createHookEngine({
    home,
    gatewayHooks: false,
    onRun: recordHookRun,
    onRunWanted: hookRunsWanted,
    logger: createMemoryLogger(),
    print: () => {},
    consentIO: NO_PROMPT,
  });
}

/** The records of one hook call: one per callback, or one `-` record when none ran. */
function groupCalls(records: readonly TraceRecord[]): TraceRecord[][] {
  const calls = new Map<string, TraceRecord[]>();
  for (const record of records) {
    const key = `${record.at}#${record.call ?? record.hook}`;
    const group = calls.get(key) ?? [];
    group.push(record);
    calls.set(key, group);
  }
  return [...calls.values()];
}

function isDecisionCall(first: TraceRecord): boolean {
  return first.phase !== undefined ? first.phase === 'decide' : DECISION_HOOKS.has(first.hook);
}

/**
 * What the turn passed with the call: for `pre_tool_call` of a built-in tool, the check of
 * rewritten arguments against its schema, so a rewrite the tool refused is refused again (§5.10).
 */
async function invokeOptionsFor(hook: string, kwargs: Record<string, unknown>): Promise<InvokeOptions> {
  const tool = hook === 'pre_tool_call' && typeof kwargs.tool_name === 'string' ? BUILTIN_TOOLS.get(kwargs.tool_name) : undefined;
  return tool ? { validateArgs: await argsValidator(tool) } : {};
}

/** Why a recorded call cannot be replayed faithfully, or its kwargs. */
function recordedKwargs(first: TraceRecord): { kwargs: Record<string, unknown> } | { why: string } {
  if (first.kwargs_cut)
    return { why: 'kwargs were cut in the trace (longer than the trace keeps): not replayed on partial input' };
  if (first.kwargs === undefined) return { why: 'no kwargs recorded' };
  if (first.outcome === undefined) return { why: 'recorded by an older hookgate (no call outcome)' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(first.kwargs);
  } catch {
    return { why: 'kwargs in the trace are not JSON (cut by an older hookgate)' };
  }
  const checked = RecordedKwargs.safeParse(parsed);
  return checked.success ? { kwargs: checked.data } : { why: 'kwargs in the trace are not an object' };
}

/**
 * The recorded call as the engine takes it (a hook it knows, kwargs that fit its schema), or why
 * it cannot be replayed. A call traced with `kwargs_history` gets its stored history back from
 * the transcript, in front of the messages the record kept.
 */
async function replayableCall(
  first: TraceRecord,
  transcripts: Pick<TranscriptStore, 'loadRange'> | undefined,
): Promise<{ hook: CallableHookName; kwargs: KwargsOf<CallableHookName> } | { why: string }> {
  const recorded = recordedKwargs(first);
  if ('why' in recorded) return recorded;
  const input = first.kwargs_history ? await withStoredHistory(recorded.kwargs, first.kwargs_history, transcripts) : recorded;
  if ('why' in input) return input;
  if (!isCallableHookName(first.hook))
    return { why: `${first.hook} is not a hook this hookgate calls (recorded by another version)` };
  if (!fitsKwargsOf(first.hook, input.kwargs)) return { why: `kwargs in the trace do not fit the ${first.hook} schema` };
  return { hook: first.hook, kwargs: input.kwargs };
}

/** `kwargs` with the transcript's `range` put back in front of its `conversation_history`. */
async function withStoredHistory(
  kwargs: Record<string, unknown>,
  range: TranscriptRange,
  transcripts: Pick<TranscriptStore, 'loadRange'> | undefined,
): Promise<{ kwargs: Record<string, unknown> } | { why: string }> {
  if (!transcripts) return { why: 'its conversation history is in the transcript, which this replay cannot read' };
  const after = kwargs.conversation_history;
  if (!Array.isArray(after)) return { why: 'kwargs in the trace name a stored history but hold no conversation_history' };
  let stored: SequencedMessages;
  try {
    stored = await transcripts.loadRange(range.session_id, range.from_seq, range.to_seq);
  } catch (error) {
    return { why: `its conversation history could not be read from the transcript: ${errorText(error)}` };
  }
  if (stored.messages.length !== range.count)
    return {
      why: `its conversation history is no longer whole in the transcript (${stored.messages.length} of ${range.count} messages)`,
    };
  return { kwargs: { ...kwargs, conversation_history: [...stored.messages, ...after] } };
}

/** What differs between a recorded decision and a replayed one, or undefined when they agree. */
function difference(
  hook: string,
  before: { outcome: string; digest?: string },
  now: { outcome: string; digest: string },
): string | undefined {
  if (before.outcome !== now.outcome) return `${before.outcome} → ${now.outcome}`;
  if (before.digest === undefined || before.digest === now.digest) return undefined;
  return decisionChange(hook);
}

/**
 * Runs every decision-hook call recorded for a turn again, with its recorded kwargs, against
 * `engine` (the hooks home as it is now: {@link loadReplayEngine}), without the model or any
 * tool, and says per call whether it decides as before. Observer calls are counted, not
 * replayed (they decide nothing). A call whose kwargs the trace cut is `not-replayable`:
 * it is never run on partial input. A hook with side effects has them again. `transcripts`
 * gives back the stored conversation a record names instead of copying (`kwargs_history`);
 * without it, such a call is not replayable.
 *
 * @example
 * const replay = await replayTurn(turnId, await traces.list(turnId), await loadReplayEngine(home), transcripts);
 * process.exitCode = replay.exit_code;
 */
export async function replayTurn(
  turnId: string,
  records: readonly TraceRecord[],
  engine: HookEngine & { home: string },
  transcripts?: Pick<TranscriptStore, 'loadRange'>,
): Promise<TurnReplay> {
  const calls: ReplayedCall[] = [];
  let observerCalls = 0;
  for (const group of groupCalls(records)) {
    const first = group[0]!;
    // What the call site made of a call (a rewrite): the call itself is replayed.
    if (first.phase === 'note') continue;
    if (!isDecisionCall(first)) {
      observerCalls++;
      continue;
    }
    const before = first.outcome ?? first.decision;
    const callbacksBefore = group
      .filter((r) => r.source !== '-')
      .map((r) => ({ source: r.source, callback: r.callback, decision: r.decision }));
    const base = { hook: first.hook, at: first.at, before, callbacks_before: callbacksBefore };
    const input = await replayableCall(first, transcripts);
    if ('why' in input) {
      calls.push({ ...base, status: 'not-replayable', now: null, note: input.why, callbacks_now: [] });
      continue;
    }
    let now: { outcome: string; digest: string };
    let callbacksNow: ReplayedCallback[] = [];
    try {
      const options = await invokeOptionsFor(input.hook, input.kwargs);
      const { value, runs } = await collectHookRuns(() => engine.invokeAll(input.hook, input.kwargs, options));
      now = { outcome: describeDecision(first.hook, value), digest: decisionDigest(first.hook, value) };
      callbacksNow = runs.map((run) => ({
        source: run.source,
        callback: run.callback,
        decision:
          run.error !== undefined
            ? `error: ${run.error}`
            : describeDecision(first.hook, run.result === undefined || run.result === null ? [] : [run.result]),
      }));
    } catch (error) {
      now = { outcome: `error: ${errorText(error)}`, digest: '-' };
    }
    const note = difference(
      first.hook,
      { outcome: before, ...(first.outcome_digest !== undefined ? { digest: first.outcome_digest } : {}) },
      now,
    );
    calls.push({
      ...base,
      status: note === undefined ? 'same' : 'differs',
      now: now.outcome,
      ...(note !== undefined ? { note } : {}),
      callbacks_now: callbacksNow,
    });
  }
  const differs = calls.filter((c) => c.status === 'differs').length;
  const notReplayable = calls.filter((c) => c.status === 'not-replayable').length;
  const exitCode = records.length === 0 ? 2 : differs > 0 ? 1 : notReplayable > 0 ? 2 : 0;
  return {
    turn_id: turnId,
    home: engine.home,
    calls,
    observer_calls: observerCalls,
    differs,
    not_replayable: notReplayable,
    exit_code: exitCode,
  };
}

/**
 * The replay as a terminal reads it: one line per call (`=` same, `≠` differs, `?` not
 * replayable) with the decision then and now, then a summary line.
 *
 * @example
 * process.stdout.write(formatReplay(replay));
 */
export function formatReplay(replay: TurnReplay): string {
  const lines = [`replaying ${replay.turn_id} against ${replay.home}`];
  for (const call of replay.calls) {
    const mark = call.status === 'same' ? '=' : call.status === 'differs' ? '≠' : '?';
    const then = oneLine(call.before);
    const line =
      call.status === 'not-replayable'
        ? `${mark} ${call.hook}  ${then}  (not replayable: ${call.note})`
        : `${mark} ${call.hook}  then: ${then}  now: ${oneLine(call.now ?? '')}${call.note !== undefined && call.status === 'differs' ? `  [${oneLine(call.note)}]` : ''}`;
    lines.push(line);
  }
  if (replay.calls.length === 0) lines.push('(no decision-hook calls recorded)');
  const summary =
    replay.exit_code === 0
      ? 'every call decides as before'
      : `${replay.differs} call(s) differ${replay.not_replayable > 0 ? `, ${replay.not_replayable} not replayable` : ''}`;
  lines.push(
    `${replay.calls.length} decision call(s) replayed, ${replay.observer_calls} observer call(s) not replayed: ${summary}`,
  );
  return `${lines.join('\n')}\n`;
}

/** One line for the terminal: whitespace runs as one space, other control characters (a hook may echo chat text) escaped. */
function oneLine(text: string): string {
  const flat = escapeControlCharacters(text.replace(/\s+/g, ' '));
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

import { performance } from 'node:perf_hooks';
import type {
  CallableHookName,
  DecisionHookName,
  GatewayEventType,
  InternalHookName,
  KwargsOf,
  PayloadOf,
} from '../../hooks/catalogue.ts';
import type { HookEngine, Kwargs, ObservedType } from '../../hooks/hook-engine.ts';
import { errorText } from '../../errors/error-text.ts';
import { textOf } from '../../hooks/text-of.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import type { HookRunRecord, InvokeOptions } from '../../hooks/hook-engine.ts';
import { TRACE_DETAIL_CHARS, TRACE_KWARGS_CHARS, type TraceRecord } from '../../store/trace-store.ts';
import type { TranscriptMessage, TranscriptRange } from '../../store/transcript-store.ts';
import { decisionDigest } from '../trace/decision-digest.ts';
import { describeDecision } from '../trace/describe-decision.ts';
import { collectHookRuns } from '../trace/hook-run-scope.ts';
import { TurnSpanRecorder } from '../trace/turn-spans.ts';
import { settlesInTime } from './settles-in-time.ts';
import { captureContentFrom } from '../../telemetry/capture-content.ts';

/** A turn's stored history as loaded, and where it is in the transcript. */
interface StoredHistory {
  readonly messages: readonly TranscriptMessage[];
  readonly range: TranscriptRange;
}

/** The ids every observer event of one turn is published with. */
export interface TurnHookMeta {
  session_id: string;
  turn_id: string;
}

/**
 * The call-site guard of hook-semantics §1.3 around one engine, for one turn: a failing
 * hook block is logged with the hook's name and the turn goes on as if it returned nothing.
 * Observers are awaited so emission order is the spec's order; `observeLater` is for
 * fire-and-forget events (agent:step), settled by `flush()` before the invocation ends.
 *
 * @example
 * const hooks = new TurnHooks(engine, logger, { session_id, turn_id });
 * const results = await hooks.decide('pre_tool_call', kwargs);
 * await hooks.observe('post_tool_call', kwargs, { gated: true });
 * await hooks.flush();
 */
export class TurnHooks {
  private readonly pending = new Set<Promise<void>>();
  /** The last observer event handed to the pipeline; the next one waits for it (order kept). */
  private handover: Promise<void> = Promise.resolve();
  /** The hand-overs not settled yet: their trace records and spans, and when each was fired. */
  private readonly unsettled = new Set<UnsettledHandOver>();
  /** Every hook call of this turn (this invocation), for `hookgate trace`. */
  readonly trace: TraceRecord[] = [];
  /** Numbers the hook calls of this invocation, so a trace groups a call's callback records. */
  private calls = 0;
  /** The stored history this turn's `conversation_history` kwargs start with, and where it is stored. */
  private storedHistory: StoredHistory | undefined;

  /** The invocation's timed operations, for its `hookgate:turn_trace` event (a child agent shares its parent's). */
  readonly spans: TurnSpanRecorder;

  constructor(
    readonly engine: HookEngine,
    private readonly logger: HookLogger,
    readonly meta: TurnHookMeta,
    spans?: TurnSpanRecorder,
  ) {
    this.spans = spans ?? new TurnSpanRecorder(captureContentFrom(configOf(engine)));
  }

  /**
   * The stored conversation this turn sends (`history`, as loaded) and its place in the
   * transcript. A call whose `conversation_history` starts with these very messages is traced
   * with the range (`kwargs_history`) and only the messages after them: the trace's writes no
   * longer grow with the session, and `hookgate replay` reads the range back.
   */
  traceHistoryByReference(history: readonly TranscriptMessage[], range: TranscriptRange | undefined): void {
    this.storedHistory = range && history.length === range.count ? { messages: history, range } : undefined;
  }

  has(hook: CallableHookName | GatewayEventType): boolean {
    try {
      return this.engine.hasHook(hook);
    } catch {
      return false;
    }
  }

  /** Raw results of a decision hook (or `permission_request`); `[]` when the invocation fails. */
  async decide<H extends DecisionHookName | InternalHookName>(
    hook: H,
    kwargs: KwargsOf<H>,
    options: InvokeOptions = {},
  ): Promise<unknown[]> {
    const at = new Date().toISOString();
    const started = performance.now();
    try {
      const { value, runs } = await collectHookRuns(() => this.engine.invokeAll(hook, kwargs, options));
      const call = {
        phase: 'decide' as const,
        outcome: describeDecision(hook, value),
        outcome_digest: decisionDigest(hook, value),
      };
      this.record(
        hook,
        at,
        started,
        runs,
        call,
        (run) => describeDecision(hook, run.result === undefined || run.result === null ? [] : [run.result]),
        kwargs,
      );
      return value;
    } catch (error) {
      this.logger.warn(`hook ${hook} failed at its call site: ${describeError(error)}`);
      this.record(hook, at, started, [], { phase: 'decide', outcome: `error: ${describeError(error)}` }, undefined, kwargs);
      return [];
    }
  }

  /**
   * Fires an observer plugin hook or gateway event. With `gated`, nothing is built or sent
   * unless someone listens (§1.3); pass `kwargs` as a function to skip building it then.
   * With `inline`, the hooks run here, awaited, before the event is published (see
   * `HookEngine.observe`); with a sink, the publish (marked `ran_at_source`) is then handed over
   * like any other event, not awaited.
   */
  async observe<T extends ObservedType>(
    type: T,
    kwargs: PayloadOf<T> | (() => PayloadOf<T>),
    options: { gated?: boolean; inline?: boolean } = {},
  ): Promise<void> {
    if (options.gated && !this.has(type)) return;
    const at = new Date().toISOString();
    const started = performance.now();
    try {
      const payload = typeof kwargs === 'function' ? kwargs() : kwargs;
      if (this.engine.publishesObservers === true) {
        if (!options.inline) {
          this.handOver(type, at, payload);
          return;
        }
        // §1.14: the hooks run here, in turn; telemetry's copy of the event need not hold the turn up.
        const { runs } = await collectHookRuns(() => this.engine.runObservers(type, payload));
        this.record(type, at, started, runs, { phase: 'observe', outcome: 'emitted' }, () => 'observed', payload);
        this.handOverRunHere(type, payload);
        return;
      }
      const meta = options.inline ? { ...this.meta, inline: true } : this.meta;
      const { runs } = await collectHookRuns(() => this.engine.observe(type, payload, meta));
      this.record(type, at, started, runs, { phase: 'observe', outcome: 'emitted' }, () => 'observed', payload);
    } catch (error) {
      this.logger.warn(`hook ${type} failed at its call site: ${describeError(error)}`);
      this.record(type, at, started, [], { phase: 'observe', outcome: `error: ${describeError(error)}` });
    }
  }

  /**
   * Records that `pre_tool_call` replaced a call's arguments (hook-semantics §5.10): one
   * trace record, decision `rewrite`, with the arguments before (`kwargs`) and after (`result`).
   */
  recordRewrite(hook: string, before: Record<string, unknown>, after: Record<string, unknown>): void {
    this.trace.push({
      turn_id: this.meta.turn_id,
      at: new Date().toISOString(),
      hook,
      source: '-',
      callback: '-',
      decision: 'rewrite: the tool runs with the rewritten arguments',
      phase: 'note',
      duration_ms: 0,
      kwargs: traceJson({ args: before }),
      result: traceJson({ args: after }),
    });
  }

  /**
   * Hands an observer event to the pipeline (the engine's sink) without holding the turn up: one
   * event after another, in the order they were fired (the sink keeps a session's events in that
   * order when SNS refuses some), and `flush()` waits for all of them. Its trace record and span
   * are placed now, where the turn fired it, and completed once it is handed over.
   */
  private handOver(type: ObservedType, at: string, payload: Kwargs): void {
    const turn_id = this.meta.turn_id;
    const record: TraceRecord = {
      turn_id,
      at,
      call: ++this.calls,
      phase: 'observe',
      outcome: 'emitted',
      ...kwargsDetail(payload, this.storedHistory),
      hook: type,
      source: '-',
      callback: '-',
      decision: 'emitted',
      duration_ms: 0,
    };
    this.trace.push(record);
    const span = this.spans.openHook({ hook: type, source: '-', callback: '-', decision: 'emitted' }, at);
    const entry: UnsettledHandOver = { record, span, firedAt: performance.now() };
    this.unsettled.add(entry);
    const done = this.handover.then(async () => {
      const started = performance.now();
      try {
        await this.engine.observe(type, payload, this.meta);
        // Given up meanwhile (`giveUpHandOvers`): its record already says so, and has been stored.
        if (!this.unsettled.delete(entry)) return;
        Object.assign(record, { duration_ms: Math.trunc(performance.now() - started) });
        span.end(performance.now() - started);
      } catch (error) {
        this.logger.warn(`hook ${type} failed at its call site: ${describeError(error)}`);
        if (!this.unsettled.delete(entry)) return;
        const outcome = `error: ${describeError(error)}`;
        Object.assign(record, { outcome, decision: outcome, duration_ms: Math.trunc(performance.now() - started) });
        span.end(performance.now() - started, outcome.slice(0, 2000));
      }
    });
    this.chain(done);
  }

  /**
   * Hands over the publish of an event whose hooks ran here (inline, §1.14), marked `ran_at_source`,
   * in order with the rest. Its trace records and spans are the hooks' own, already made: a failed
   * publish is logged.
   */
  private handOverRunHere(type: ObservedType, payload: Kwargs): void {
    const meta = { ...this.meta, ran_at_source: true };
    this.chain(
      this.handover.then(() =>
        this.engine.observe(type, payload, meta).catch((error: unknown) => {
          this.logger.warn(`observer event ${type} (its hooks ran in the turn) could not be published: ${describeError(error)}`);
        }),
      ),
    );
  }

  /** The next link of the hand-over chain: the one after it waits for it, and `flush()` does. */
  private chain(done: Promise<void>): void {
    this.handover = done;
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Fire-and-forget (agent:step): the loop does not wait; `flush()` does. */
  observeLater<T extends ObservedType>(type: T, kwargs: PayloadOf<T>): void {
    const done: Promise<void> = this.observe(type, kwargs).finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  private record(
    hook: string,
    at: string,
    started: number,
    runs: readonly HookRunRecord[],
    call: Pick<TraceRecord, 'phase' | 'outcome' | 'outcome_digest'> & { outcome: string },
    perRun?: (run: HookRunRecord) => string,
    kwargs?: Kwargs,
  ): void {
    const turn_id = this.meta.turn_id;
    const common = {
      turn_id,
      at,
      call: ++this.calls,
      ...call,
      ...(kwargs === undefined ? {} : kwargsDetail(kwargs, this.storedHistory)),
    };
    if (runs.length === 0) {
      const duration = performance.now() - started;
      // The trace keeps the call (replay runs it again); telemetry gets a span only for an
      // emission handed to the pipeline or a call site that failed, not for a decision nobody
      // was asked for (docs/telemetry.md §2: a span per callback).
      this.trace.push({ ...common, hook, source: '-', callback: '-', decision: call.outcome, duration_ms: Math.trunc(duration) });
      if (call.phase !== 'decide' || call.outcome.startsWith('error'))
        this.spans.recordHook({ hook, source: '-', callback: '-', decision: call.outcome.slice(0, 2000) }, at, duration);
      return;
    }
    for (const run of runs) {
      const decision =
        run.error !== undefined
          ? `error: ${run.error}`
          : run.detail?.skipped !== undefined
            ? `skipped: ${run.detail.skipped}`
            : (perRun?.(run) ?? call.outcome);
      this.spans.recordHook(
        { hook: run.hook, source: run.source, callback: run.callback, decision: decision.slice(0, 2000) },
        at,
        run.durationMs,
      );
      this.trace.push({
        ...common,
        hook: run.hook,
        source: run.source,
        callback: run.callback,
        ...(run.plugin !== undefined ? { plugin: run.plugin } : {}),
        ...shellDetail(run),
        decision,
        duration_ms: Math.trunc(run.durationMs),
        result: run.error !== undefined ? traceJson({ error: run.error }) : traceJson(run.result ?? null),
      });
    }
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * `flush()`, given up `graceMs` after `signal` aborts (the invocation's deadline): the events
   * still not handed over then are marked so (`giveUpHandOvers`). Resolves to how many were, or
   * `undefined` when everything settled in time. Without a signal it is `flush()`.
   *
   * @example
   * const left = await hooks.flushBy(deps.signal, EVENTS_GRACE_MS);
   * if (left !== undefined) logger.warn(`${left} observer event(s) not handed over`);
   */
  async flushBy(signal: AbortSignal | undefined, graceMs: number): Promise<number | undefined> {
    if (await settlesInTime(this.flush(), signal, graceMs)) return undefined;
    return this.giveUpHandOvers(`not handed over by ${graceMs} ms past the invocation's deadline`);
  }

  /**
   * Marks every observer event not yet handed over as not handed over, `reason` saying why (the
   * invocation stops waiting for them: `flush()` did not settle by its deadline), so that the
   * trace and the turn-trace event stored next do not show them as emitted. Each keeps how long
   * it waited. Returns how many there were.
   *
   * @example
   * hooks.giveUpHandOvers('not handed over by the deadline') // 2: their records now say so
   */
  giveUpHandOvers(reason: string): number {
    const now = performance.now();
    const outcome = `error: ${reason}`;
    for (const { record, span, firedAt } of this.unsettled) {
      Object.assign(record, { outcome, decision: outcome, duration_ms: Math.trunc(now - firedAt) });
      span.end(now - firedAt, outcome.slice(0, 2000));
    }
    const count = this.unsettled.size;
    this.unsettled.clear();
    return count;
  }
}

/** An observer event's hand-over in flight or queued (`TurnHooks.handOver`). */
interface UnsettledHandOver {
  readonly record: TraceRecord;
  readonly span: { end(durationMs: number, decision?: string): void };
  /** `performance.now()` when the turn fired it. */
  readonly firedAt: number;
}

/** The hooks home's config.yaml mapping; an engine without one (a test double) has none. */
function configOf(engine: HookEngine): Record<string, unknown> | undefined {
  try {
    return engine.config;
  } catch {
    return undefined;
  }
}

/** `String(error)` as before, without throwing for a value whose `toString` throws. */
function describeError(error: unknown): string {
  return textOf(error) ?? errorText(error);
}

/** JSON of a value; never throws (cycles, BigInt). */
function jsonOf(value: unknown): string {
  try {
    // Without a replacer first: V8's fast serialiser does not run with one (≈ 2x the time for
    // every traced call's kwargs), and only a BigInt needs it.
    return JSON.stringify(value) ?? 'null';
  } catch {
    try {
      return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
    } catch {
      return String(value);
    }
  }
}

/** JSON for a trace record's result, cut to TRACE_DETAIL_CHARS. */
function traceJson(value: unknown): string {
  const text = jsonOf(value);
  return text.length > TRACE_DETAIL_CHARS ? `${text.slice(0, TRACE_DETAIL_CHARS)}…` : text;
}

/**
 * A call's kwargs for its trace records: whole up to TRACE_KWARGS_CHARS, else cut and marked so
 * (replay refuses them). A `conversation_history` that starts with the turn's stored history
 * keeps only what follows it, and the record names the stored part's transcript range.
 */
function kwargsDetail(
  kwargs: Kwargs,
  stored: StoredHistory | undefined,
): Pick<TraceRecord, 'kwargs' | 'kwargs_cut' | 'kwargs_history'> {
  const after = stored === undefined ? undefined : historyAfter(kwargs.conversation_history, stored.messages);
  const text = jsonOf(after === undefined ? kwargs : { ...kwargs, conversation_history: after });
  if (text.length > TRACE_KWARGS_CHARS) return { kwargs: `${text.slice(0, TRACE_DETAIL_CHARS)}…`, kwargs_cut: true };
  return after === undefined ? { kwargs: text } : { kwargs: text, kwargs_history: stored!.range };
}

/** The messages of `history` after `stored`, when it starts with those very messages (not copies). */
function historyAfter(history: unknown, stored: readonly TranscriptMessage[]): unknown[] | undefined {
  if (!Array.isArray(history) || history.length < stored.length) return undefined;
  for (let i = 0; i < stored.length; i++) if (history[i] !== stored[i]) return undefined;
  return history.slice(stored.length);
}

/** A shell hook's exit code and output, as its run reported them. */
function shellDetail(run: HookRunRecord): Pick<TraceRecord, 'exit_code' | 'stdout' | 'stderr'> {
  const detail = run.detail;
  if (!detail || detail.exit_code === undefined) return {};
  return {
    exit_code: detail.exit_code,
    ...(detail.stdout !== undefined ? { stdout: detail.stdout } : {}),
    ...(detail.stderr !== undefined ? { stderr: detail.stderr } : {}),
  };
}

import { callCollectingDetail, type RunDetail } from './run-detail.ts';
import { CallbackDeadlineError, settleWithin } from './callback-deadline.ts';
import type { RegisteredCallback } from './callback-registry.ts';
import { errorText } from '../errors/error-text.ts';
import type { HookRunRecord } from './hook-engine.ts';
import type { HookLogger } from './hook-logger.ts';
import { applyRewrite, type ArgsValidator } from './tool-call-rewrite.ts';

export interface RunCallbacksContext {
  readonly logger: HookLogger;
  readonly onRun?: ((record: HookRunRecord) => void) | undefined;
  /** Whether `onRun` keeps a record now (unset: always); asked once per hook call. */
  readonly onRunWanted?: (() => boolean) | undefined;
  /**
   * Deadline of one in-process (plugin) callback's promise, in ms (§5.8); unset = none.
   * Shell callbacks are bounded by their own `timeout` and are not cut here.
   */
  callbackTimeoutMs?: number;
}

/** `pre_tool_call` only: rewrites are applied between callbacks (hook-semantics §5.10). */
export interface RewriteContext {
  /** The tool's argument check; absent = any JSON object is taken. */
  readonly validate?: ArgsValidator;
}

/** Awaits a callback's thenable, within the deadline for plugin callbacks. */
function settle(callback: RegisteredCallback, value: PromiseLike<unknown>, context: RunCallbacksContext): Promise<unknown> {
  return callback.source === 'shell' || context.callbackTimeoutMs === undefined
    ? Promise.resolve(value)
    : settleWithin(value, context.callbackTimeoutMs);
}

/** The §1.3 warning for a failed callback; a missed deadline names the plugin, hook and elapsed time (§5.8). */
function warnFailed(hook: string, callback: RegisteredCallback, error: unknown, context: RunCallbacksContext): void {
  if (error instanceof CallbackDeadlineError) {
    context.logger.warn(
      `hook ${hook}: callback ${callback.name}${callback.plugin ? ` of plugin ${callback.plugin}` : ''} ${error.message}; ` +
        'counted as failed, the caller goes on and a late result is ignored (plugins.callback_timeout)',
    );
    return;
  }
  context.logger.warn(`hook ${hook}: callback ${callback.name} failed: ${errorText(error)}`);
}

const NO_VALUE = Symbol('no value');

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Calls one callback on its own shallow copy of `kwargs`. Only a traced shell callback runs in a
 * detail context (run-detail.ts): the shell dispatcher is what reports a run's exit code, output or
 * skip; a plugin reports none, and its callback already runs in its own context (hook-code.ts).
 */
function call(callback: RegisteredCallback, kwargs: Record<string, unknown>, box: DetailBox | undefined): unknown {
  return box && callback.source === 'shell'
    ? callCollectingDetail(box, () => callback.fn({ ...kwargs }))
    : callback.fn({ ...kwargs });
}

/**
 * Runs one callback on its own shallow copy of `kwargs`, awaiting a thenable. A throw or a
 * rejection is logged (hook, callback, error) and yields NO_VALUE (hook-semantics §1.3).
 */
async function runOne(
  hook: string,
  callback: RegisteredCallback,
  kwargs: Record<string, unknown>,
  context: RunCallbacksContext,
): Promise<unknown> {
  // Only a traced run collects what the callback says of itself: nothing allocated otherwise.
  const box: DetailBox | undefined = tracing(context) ? {} : undefined;
  const started = box ? performance.now() : 0;
  try {
    let value = call(callback, kwargs, box);
    // Only thenables are awaited: a sync callback costs no extra microtask on the hot path.
    if (isThenable(value)) value = await settle(callback, value, context);
    if (box) reportRun(context, hook, callback, started, box, { result: value });
    return value;
  } catch (error) {
    warnFailed(hook, callback, error, context);
    if (box) reportRun(context, hook, callback, started, box, { error: errorText(error) });
    return NO_VALUE;
  }
}

/** A recorder is set and wants this call (a run outside any turn or observer trace is not kept). */
function tracing(context: RunCallbacksContext): boolean {
  return context.onRun !== undefined && (context.onRunWanted?.() ?? true);
}

/** Where a traced callback's own account of its run lands (see run-detail.ts). */
type DetailBox = { detail?: RunDetail };

/** Reports one callback's run to `onRun`: who ran, for how long, what it said of itself, and how it ended. */
function reportRun(
  context: RunCallbacksContext,
  hook: string,
  callback: RegisteredCallback,
  started: number,
  box: DetailBox,
  outcome: { result: unknown } | { error: string },
): void {
  report(context, {
    hook,
    source: callback.source,
    callback: callback.name,
    ...(callback.plugin !== undefined ? { plugin: callback.plugin } : {}),
    ...(box.detail ? { detail: box.detail } : {}),
    durationMs: performance.now() - started,
    ...outcome,
  });
}

function report(context: RunCallbacksContext, record: HookRunRecord): void {
  try {
    context.onRun?.(record);
  } catch {
    // A trace recorder must never change what a hook does.
  }
}

/**
 * Runs `callbacks` strictly one after another and returns their results with `null` /
 * `undefined` (and failed callbacks) dropped, in order (hook-semantics §1.3 steps 2–4).
 * `kwargs` must already carry the telemetry tag.
 *
 * @example
 * const results = await runCallbacks('pre_tool_call', registry.callbacks('pre_tool_call'), kwargs, { logger });
 */
export async function runCallbacks(
  hook: string,
  callbacks: readonly RegisteredCallback[],
  given: Record<string, unknown>,
  context: RunCallbacksContext,
  rewrites?: RewriteContext,
): Promise<unknown[]> {
  const results: unknown[] = [];
  const traced = tracing(context);
  let kwargs = given;
  for (const callback of callbacks) {
    // Inlined rather than calling runOne: no extra promise per synchronous callback.
    const box: DetailBox | undefined = traced ? {} : undefined;
    const started = box ? performance.now() : 0;
    let value: unknown;
    try {
      value = call(callback, kwargs, box);
      if (isThenable(value)) value = await settle(callback, value, context);
    } catch (error) {
      warnFailed(hook, callback, error, context);
      if (box) reportRun(context, hook, callback, started, box, { error: errorText(error) });
      continue;
    }
    if (box) reportRun(context, hook, callback, started, box, { result: value });
    // Later callbacks see rewritten arguments (§5.10).
    if (rewrites) ({ value, kwargs } = applyRewrite(callback, value, kwargs, rewrites.validate, context.logger));
    if (value !== null && value !== undefined) results.push(value);
  }
  return results;
}

/**
 * Runs observer callbacks strictly one after another, in registration order (hook-semantics
 * §1.3 step 2: never side by side, shell observers included: a hook's side effects, say a
 * line appended to a file, are ordered like its neighbours'). Their results are not read.
 *
 * @example
 * await runObserverCallbacks('post_tool_call', registry.callbacks('post_tool_call'), kwargs, { logger });
 */
export async function runObserverCallbacks(
  hook: string,
  callbacks: readonly RegisteredCallback[],
  kwargs: Record<string, unknown>,
  context: RunCallbacksContext,
): Promise<void> {
  for (const callback of callbacks) await runOne(hook, callback, kwargs, context);
}

import * as z from '../../validation/zod.ts';

/** Decision hooks have their results read by the call site; observer results are ignored. */
export type HookKind = 'decision' | 'observer';

/**
 * The zod schema of one hook's kwargs: loose (unknown keys pass, §0.2), every key optional
 * (callers outside the process send partial kwargs), the present keys type-checked. The
 * shape's key order is the contract's key order (hook-semantics §1.5–§1.15).
 */
export type KwargsSchema<Shape extends z.core.$ZodShape> = ReturnType<typeof kwargsSchema<Shape>>;

/**
 * Builds a {@link KwargsSchema}. Write the keys in the order the spec lists them: that order
 * is what shell hooks receive over the wire and what `KWARGS_KEY_ORDER` reports.
 *
 * @example
 * const schema = kwargsSchema({ session_id: z.string(), model: z.string(), platform: z.string() });
 * schema.safeParse({ model: 'm', extra: 1 }).success // true
 */
function kwargsSchema<const Shape extends z.core.$ZodShape>(shape: Shape) {
  return z.partial(z.looseObject(shape));
}

/**
 * `definition` with the {@link KwargsOfHook} of `shape` added: `keys` now, `kwargs` a getter
 * that builds {@link kwargsSchema} on its first read (so spreading a definition builds it).
 */
function withLazyKwargs<const Shape extends z.core.$ZodShape, Definition extends object>(
  shape: Shape,
  definition: Definition,
): Definition & KwargsOfHook<Shape> {
  let schema: KwargsSchema<Shape> | undefined;
  return Object.defineProperties(definition, {
    keys: { value: Object.keys(shape), enumerable: true },
    kwargs: { get: () => (schema ??= kwargsSchema(shape)), enumerable: true },
  }) as Definition & KwargsOfHook<Shape>;
}

/** How a trace tells what a decision hook's results decided (`hookgate trace`, `hookgate replay`). */
export interface DecisionTrace {
  /** A short word for what the results mean at the call site (`block: no`, `replaced`). */
  describe(results: readonly unknown[]): string;
  /**
   * What the call site takes from the results, in full (block message, context, replacement
   * text); `undefined` when it takes nothing. Traces keep a digest of it.
   */
  content(results: readonly unknown[]): string | undefined;
  /** What `hookgate replay` says when the outcome word agrees but the content does not. */
  changed: string;
}

/**
 * What every hook of the catalogue declares: its kwargs keys in contract order, and their
 * schema. The schema is built the first time it is read (`/v1/hooks/{hook}`, `hookgate
 * replay`), not at import: the catalogue's 20 schemas were ≈ 6 ms of every cold start
 * (docs/performance.md#cold-start), and most invocations never parse kwargs.
 */
interface KwargsOfHook<Shape extends z.core.$ZodShape> {
  /** The kwargs keys in contract order (hook-semantics §1.5–§1.15), known without building the schema. */
  readonly keys: readonly string[];
  readonly kwargs: KwargsSchema<Shape>;
}

/** One observer hook: its results are ignored, it runs through the observer sink. */
export interface ObserverHook<Shape extends z.core.$ZodShape> extends KwargsOfHook<Shape> {
  readonly kind: 'observer';
}

/** One decision hook: how its results combine into the `/v1/hooks/{hook}` answer, and how traces describe them. */
export interface DecisionHook<Shape extends z.core.$ZodShape, Answer extends Record<string, unknown>>
  extends KwargsOfHook<Shape> {
  readonly kind: 'decision';
  /** The aggregation rule: the callbacks' results (null/undefined dropped) → the hook's answer (architecture §4). */
  answer(results: readonly unknown[]): Answer;
  readonly trace: DecisionTrace;
}

/**
 * Declares an observer hook of the catalogue.
 *
 * @example
 * const on_session_start = observerHook({ session_id: z.string(), model: z.string(), platform: z.string() });
 */
export function observerHook<const Shape extends z.core.$ZodShape>(shape: Shape): ObserverHook<Shape> {
  return withLazyKwargs(shape, { kind: 'observer' as const });
}

/**
 * Declares a decision hook of the catalogue: its kwargs in contract order, its aggregation
 * rule, and how traces describe its decision.
 *
 * @example
 * const transform_llm_output = decisionHook(
 *   { response_text: z.string(), session_id: z.string(), model: z.string(), platform: z.string() },
 *   { answer: (results) => …, trace: { describe: …, content: …, changed: 'transform changed' } },
 * );
 */
export function decisionHook<const Shape extends z.core.$ZodShape, Answer extends Record<string, unknown>>(
  shape: Shape,
  rules: { answer: (results: readonly unknown[]) => Answer; trace: DecisionTrace },
): DecisionHook<Shape, Answer> {
  return withLazyKwargs(shape, { kind: 'decision' as const, answer: rules.answer, trace: rules.trace });
}

/** A hook hookgate calls that is not one of the 19 plugin hooks: typed kwargs, results read raw by its call site. */
export interface InternalHook<Shape extends z.core.$ZodShape> extends KwargsOfHook<Shape> {
  readonly kind: 'internal';
}

/**
 * Declares an internal hook (not part of the plugin contract).
 *
 * @example
 * const permission_request = internalHook({ command: z.string(), session_id: z.string() });
 */
export function internalHook<const Shape extends z.core.$ZodShape>(shape: Shape): InternalHook<Shape> {
  return withLazyKwargs(shape, { kind: 'internal' as const });
}

/**
 * The trace description of a hook without a rule of its own (observers, unknown names, and
 * decisions taken outside a turn): how many results there were.
 *
 * @example
 * countedResults.describe([]) // 'no result'
 */
export const countedResults: DecisionTrace = {
  describe: (results) => (results.length === 0 ? 'no result' : `${results.length} result(s)`),
  content: () => undefined,
  changed: 'decision changed',
};

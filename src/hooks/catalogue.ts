/**
 * The 19 plugin-hook names of the Hermes contract and what their return values mean
 * (hook-semantics §0.6, §1.4), derived from the one table in `catalogue/hooks.ts`.
 */
import { compareCodePoints } from './code-point-order.ts';
import { countedResults, type DecisionTrace, type HookKind } from './catalogue/hook-definition.ts';
import type { CallableHookName, HookName, InternalHookName, KwargsOf } from './catalogue/hook-types.ts';
import { HOOKS, INTERNAL_HOOKS } from './catalogue/hooks.ts';

export { HOOKS, INTERNAL_HOOKS } from './catalogue/hooks.ts';
export type { DecisionTrace, HookKind } from './catalogue/hook-definition.ts';
export type {
  AnswerOf,
  CallableHookName,
  DecisionHookName,
  GatewayEventType,
  HookName,
  InternalHookName,
  KwargsOf,
  ObserverAnswer,
  ObserverHookName,
  PayloadOf,
} from './catalogue/hook-types.ts';
export { hookAnswer } from './catalogue/hook-answer.ts';
export { orderKwargs } from './catalogue/order-kwargs.ts';

const hookNames = Object.keys(HOOKS) as HookName[];

/** One value per hook, in table order. */
function perHook<V>(pick: (name: HookName) => V): { readonly [H in HookName]: V } {
  return Object.fromEntries(hookNames.map((name) => [name, pick(name)])) as Record<HookName, V>;
}

/** Each hook's kind. */
export const HOOK_KINDS = Object.fromEntries(hookNames.map((name) => [name, HOOKS[name].kind])) as {
  readonly [H in HookName]: (typeof HOOKS)[H]['kind'];
};

/** Sorted by code point, the order every "valid: …" message prints. */
export const HOOK_NAMES: readonly HookName[] = [...hookNames].sort(compareCodePoints);

/** `a, b, c` — the list printed wherever the spec says "lists the valid names". */
export const VALID_HOOK_NAMES_TEXT = HOOK_NAMES.join(', ');

/**
 * The kwargs keys of each hook, in the key order of hook-semantics §1.5–§1.15 (the schema's
 * key order). Key order is part of the contract (shell hooks receive it over the wire, §0.2).
 */
export const KWARGS_KEY_ORDER = perHook((name): readonly string[] => HOOKS[name].keys);

/**
 * zod schemas of each hook's kwargs: loose (unknown keys pass), every key optional, the
 * present keys type-checked. Parsing does not preserve the caller's key order; validate
 * with these, then pass the original object (or {@link orderKwargs}) to the engine.
 *
 * @example
 * const parsed = KWARGS_SCHEMAS.pre_tool_call.safeParse(body);
 * if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
 */
export const KWARGS_SCHEMAS = Object.defineProperties(
  {},
  // Getters onto the catalogue's: each schema is built on its first read, not at import.
  Object.fromEntries(hookNames.map((name) => [name, { enumerable: true, get: () => HOOKS[name].kwargs }])),
) as { readonly [H in HookName]: (typeof HOOKS)[H]['kwargs'] };

export function isHookName(name: unknown): name is HookName {
  return typeof name === 'string' && Object.hasOwn(HOOKS, name);
}

/** True for a plugin hook or an internal hook (`permission_request`): a name callbacks run under. */
export function isCallableHookName(name: unknown): name is CallableHookName {
  return isHookName(name) || (typeof name === 'string' && Object.hasOwn(INTERNAL_HOOKS, name));
}

/**
 * True when `value` fits the kwargs schema of `hook` (the keys present have their types;
 * unknown keys pass): the value itself, key order kept, may then go to the engine.
 *
 * @example
 * if (fitsKwargsOf('pre_tool_call', recorded)) await engine.invokeAll('pre_tool_call', recorded);
 */
export function fitsKwargsOf<H extends CallableHookName>(
  hook: H,
  value: Record<string, unknown>,
): value is Record<string, unknown> & KwargsOf<H> {
  const schema = isHookName(hook) ? HOOKS[hook].kwargs : INTERNAL_HOOKS[hook as InternalHookName].kwargs;
  return schema.safeParse(value).success;
}

/** Kind of a hook; unknown names (stored for forward compatibility) are observers. */
export function hookKind(name: string): HookKind {
  return isHookName(name) ? HOOKS[name].kind : 'observer';
}

/**
 * How traces describe the results of `hook`: the decision hook's own description from the
 * table; for observers, internal hooks and unknown names, the count of results.
 *
 * @example
 * decisionTraceOf('pre_tool_call').describe([{ action: 'block', message: 'no' }]) // 'block: no'
 * decisionTraceOf('permission_request').describe([]) // 'no result'
 */
export function decisionTraceOf(hook: string): DecisionTrace {
  if (!isHookName(hook)) return countedResults;
  const definition = HOOKS[hook];
  return definition.kind === 'decision' ? definition.trace : countedResults;
}

/** The value added to every invocation's kwargs when the caller did not supply one (§1.3). */
export const TELEMETRY_SCHEMA_VERSION = 'hermes.observer.v1';

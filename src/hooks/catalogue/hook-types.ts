import type * as z from '../../validation/zod.ts';
import type { HOOKS, INTERNAL_HOOKS } from './hooks.ts';

type Hooks = typeof HOOKS;
type InternalHooks = typeof INTERNAL_HOOKS;
type AllHooks = Hooks & InternalHooks;

/** One of the 19 plugin-hook names; a misspelled name does not compile. */
export type HookName = keyof Hooks;
/** The plugin hooks whose results the call site reads. */
export type DecisionHookName = { [H in HookName]: Hooks[H]['kind'] extends 'decision' ? H : never }[HookName];
/** The plugin hooks whose results are ignored (run through the observer sink). */
export type ObserverHookName = Exclude<HookName, DecisionHookName>;
/** Hooks hookgate calls that are not plugin hooks (`permission_request`). */
export type InternalHookName = keyof InternalHooks;
/** Every name a call site may run callbacks under. */
export type CallableHookName = HookName | InternalHookName;
/**
 * A gateway event type (hook-semantics §2.4): `gateway:startup`, `agent:step`,
 * `command:<name>`, `hookgate:turn_trace`… Every one has a colon, no plugin hook has one.
 */
export type GatewayEventType = `${string}:${string}`;

/**
 * The kwargs of hook `H`, from its zod schema: every contract key optional, with its type.
 * Only the contract's keys are known to the compiler, so a misspelled key in an object
 * literal does not compile; extra keys can still be spread in (§0.2 lets callers add some).
 */
export type KwargsOf<H extends CallableHookName> = {
  -readonly [K in keyof AllHooks[H]['kwargs']['shape']]?: z.output<AllHooks[H]['kwargs']['shape'][K]>;
} & {
  /** Added by the engine when the caller did not supply it (§1.3). */
  telemetry_schema_version?: string;
};

/** An observer hook's answer on `/v1/hooks/{hook}`: always `{}`. */
export type ObserverAnswer = Record<string, never>;

/** What `engine.invoke(hook, …)` answers: the decision hook's aggregated answer, `{}` for an observer. */
export type AnswerOf<H extends HookName> = H extends DecisionHookName ? ReturnType<Hooks[H]['answer']> : ObserverAnswer;

/** The payload `observe` takes for an event: a plugin hook's kwargs, or a gateway event's context. */
export type PayloadOf<T extends ObserverHookName | GatewayEventType> = T extends ObserverHookName
  ? KwargsOf<T>
  : Record<string, unknown>;

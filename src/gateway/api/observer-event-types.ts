import { HOOK_KINDS } from '../../hooks/catalogue.ts';

/** The gateway events of hook-semantics §2.4 that are observed (command:<name> is a decision). */
export const GATEWAY_EVENT_NAMES = [
  'gateway:startup',
  'session:start',
  'session:end',
  'session:reset',
  'agent:start',
  'agent:step',
  'agent:end',
  'session:compress',
] as const;

export const OBSERVER_PLUGIN_HOOKS = Object.entries(HOOK_KINDS)
  .filter(([, kind]) => kind === 'observer')
  .map(([name]) => name)
  .sort();

/** Other lifecycle events the agent forwards (`session:compress`-like) keep these bases. */
const FORWARDED_EVENT = /^(agent|session|gateway):[a-z][a-z0-9_]*$/;

/**
 * True for a type `POST /v1/events` accepts: an observer plugin hook or a gateway event name.
 *
 * @example
 * isObserverEventType('post_tool_call'); // true
 * isObserverEventType('pre_tool_call');  // false (a decision hook)
 */
export function isObserverEventType(type: string): boolean {
  return (
    OBSERVER_PLUGIN_HOOKS.includes(type) ||
    (GATEWAY_EVENT_NAMES as readonly string[]).includes(type) ||
    FORWARDED_EVENT.test(type)
  );
}

export const isPluginHookType = (type: string): boolean => OBSERVER_PLUGIN_HOOKS.includes(type);

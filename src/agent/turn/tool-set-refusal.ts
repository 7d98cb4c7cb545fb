import { describeToolSet, toolSetAllows, type ChatToolSet } from '../../config/chat-tool-sets.ts';
import type { TurnHooks } from './turn-hooks.ts';

/**
 * The refusal of a call to a tool outside the chat's tool set (hook-semantics §5.10), or
 * undefined when the set allows it. It is asked after `pre_tool_call` has fired (the hooks
 * see every call the model makes), and the refusal goes into the turn's trace beside the
 * hook calls, so `hookgate trace` shows why the tool did not run.
 *
 * @example
 * const message = blockMessage(results) ?? refuseOutsideToolSet(site.toolSet, 'terminal', hooks);
 * // "Tool 'terminal' is not available in this chat: tool set tools.discord is none"
 */
export function refuseOutsideToolSet(set: ChatToolSet | undefined, toolName: string, hooks: TurnHooks): string | undefined {
  if (!set || toolSetAllows(set, toolName)) return undefined;
  const message = `Tool '${toolName}' is not available in this chat: tool set ${set.source} is ${describeToolSet(set)}`;
  hooks.trace.push({
    turn_id: hooks.meta.turn_id,
    at: new Date().toISOString(),
    hook: 'tool_set',
    source: 'config',
    callback: set.source,
    decision: `refused ${toolName}: ${message}`,
    duration_ms: 0,
  });
  return message;
}

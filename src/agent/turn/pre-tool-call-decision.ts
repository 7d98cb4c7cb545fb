import { hookAnswer } from '../../hooks/catalogue.ts';
import { rewrittenArgs } from '../../hooks/tool-call-rewrite.ts';
import { argsValidator } from '../tools/args-validator.ts';
import type { Tool } from '../tools/tool.ts';
import type { TurnHooks } from './turn-hooks.ts';

/** What `pre_tool_call` decided for one call: a block message, or the arguments to run with. */
export type PreToolCallDecision =
  | { kind: 'block'; message: string }
  | { kind: 'run'; args: Record<string, unknown>; rewritten: boolean };

/**
 * Runs `pre_tool_call` for one call (hook-semantics §1.5, §5.10): a block anywhere wins;
 * otherwise the last rewrite that fits the tool's schema gives the arguments the approval
 * check and the tool use, and the trace records the arguments before and after.
 *
 * @example
 * const decision = await decidePreToolCall(hooks, tools.get('terminal'), { tool_name: 'terminal', args, … });
 * if (decision.kind === 'run') args = decision.args;
 */
export async function decidePreToolCall(
  hooks: TurnHooks,
  tool: Tool | undefined,
  kwargs: Record<string, unknown> & { args: Record<string, unknown> },
): Promise<PreToolCallDecision> {
  // Only a registered pre_tool_call callback can rewrite: without one, nothing needs the check (nor its JSON Schema compiler).
  const validateArgs = tool && hooks.has('pre_tool_call') ? await argsValidator(tool) : undefined;
  const results = await hooks.decide('pre_tool_call', kwargs, validateArgs ? { validateArgs } : {});
  const answer = hookAnswer('pre_tool_call', results);
  if (answer.action === 'block') return { kind: 'block', message: answer.message };
  const args = rewrittenArgs(results);
  if (args === undefined) return { kind: 'run', args: kwargs.args, rewritten: false };
  hooks.recordRewrite('pre_tool_call', kwargs.args, args);
  return { kind: 'run', args, rewritten: true };
}

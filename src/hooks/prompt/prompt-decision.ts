import * as z from '../../validation/zod.ts';

const DecisionSchema = z.strictObject({ decision: z.enum(['allow', 'block']), reason: z.optional(z.string()) });
const ContextSchema = z.strictObject({ context: z.string() });

/** A model's answer, read: the stdout a command hook would have printed for the same result. */
export type PromptDecision = { ok: true; stdout: string } | { ok: false; error: string };

/**
 * Reads a prompt hook's model answer (hook-semantics §5.10): one JSON object, either
 * `{"decision": "allow" | "block", "reason"?}` or, on events other than `pre_tool_call`,
 * `{"context"}` (a decision there is accepted too). A single surrounding
 * Markdown code fence is tolerated; anything else is a failed run. The result is the
 * equivalent command-hook stdout, so the usual rules (§3.7, §5.0, §5.1) decide the rest.
 *
 * @example
 * readPromptDecision('pre_tool_call', '{"decision": "block", "reason": "no"}') // { ok: true, stdout: '{"decision":"block","reason":"no"}' }
 * readPromptDecision('pre_tool_call', 'Sure, looks fine!') // { ok: false, error: '…' }
 */
export function readPromptDecision(event: string, answer: string): PromptDecision {
  const text = answer
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1')
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `the model's answer is not a structured decision: ${JSON.stringify(text.slice(0, 120))}` };
  }
  const decision = DecisionSchema.safeParse(value);
  if (decision.success) {
    const { decision: verdict, reason } = decision.data;
    // A block on another event is read as a command's would be: ignored, except by a payload: claude
    // UserPromptSubmit hook, for which it blocks the prompt (claude-event-gate.ts).
    if (verdict === 'allow') return { ok: true, stdout: '{}' };
    return { ok: true, stdout: JSON.stringify({ decision: 'block', ...(reason ? { reason } : {}) }) };
  }
  const context = ContextSchema.safeParse(value);
  if (context.success && event !== 'pre_tool_call') return { ok: true, stdout: JSON.stringify(context.data) };
  return {
    ok: false,
    error:
      event === 'pre_tool_call'
        ? `the model's answer is not {"decision": "allow" | "block", "reason"?}: ${JSON.stringify(text.slice(0, 120))}`
        : `the model's answer is not {"context"} nor a decision: ${JSON.stringify(text.slice(0, 120))}`,
  };
}

/** One question to the model of a `type: prompt` hook (hook-semantics §5.10). */
export interface PromptJudgeRequest {
  /** The entry's `prompt:` as written: what to judge the input by (`$ARGUMENTS` not yet replaced). */
  readonly prompt: string;
  /** The hook input, exactly the JSON a command hook would read on stdin. */
  readonly input: string;
  /** The hookgate event (a decision for `pre_tool_call`, context for the others). */
  readonly event: string;
  /** The entry's `model:`; absent = the deployment's model. */
  readonly model?: string;
  readonly signal: AbortSignal;
}

/** Asks a model and resolves to the text of its answer (which the hook then checks). */
export type PromptJudge = (request: PromptJudgeRequest) => Promise<string>;

/**
 * The instruction a real model gets with the hook input (the stand-in reads the prompt
 * itself). Asks for exactly the structured decision prompt-decision.ts accepts.
 *
 * @example
 * judgeInstruction({ prompt: 'Block deletes.', event: 'pre_tool_call', input: '{…}' })
 */
export function judgeInstruction(request: Pick<PromptJudgeRequest, 'prompt' | 'event' | 'input'>): string {
  const shape =
    request.event === 'pre_tool_call'
      ? '{"decision": "allow"} or {"decision": "block", "reason": "<one sentence for the agent>"}'
      : '{"context": "<text to add, or an empty string>"}';
  return (
    'You are a policy hook of an AI agent. Judge the hook input (JSON, in the user message) by this rule:\n\n' +
    // Claude Code's placeholder for the hook input, so imported prompts read as written.
    `${request.prompt.replaceAll('$ARGUMENTS', request.input)}\n\nAnswer with one JSON object and nothing else: ${shape}.`
  );
}

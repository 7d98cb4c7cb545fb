import type { PromptJudge } from './prompt-judge.ts';

/**
 * The local stand-in's judgement for `type: prompt` hooks (no account, no network,
 * deterministic; docs/reference/prompt-hooks.md). It is not a language model: it reads the
 * prompt for two things only.
 *
 * - `answer: <text>` (a line of the prompt): it answers `<text>` verbatim, to try out how
 *   the hook treats a given answer (e.g. one that is not a decision).
 * - Quoted phrases (`"…"`): when the hook input contains one (case-insensitive), a
 *   `pre_tool_call` hook gets `{"decision": "block", "reason": "stand-in judge: the input
 *   contains \"<phrase>\""}` and any other event `{"context": "<the prompt>"}`; otherwise
 *   `{"decision": "allow"}` / `{"context": ""}`.
 *
 * @example
 * await standInJudge({ prompt: 'Block "rm -rf".', input: '{"tool_input": {"command": "rm -rf /"}}', event: 'pre_tool_call', signal })
 * // '{"decision": "block", "reason": "stand-in judge: the input contains \"rm -rf\""}'
 */
export const standInJudge: PromptJudge = async ({ prompt, input, event }) => {
  const fixed = /^answer:[ \t]?(.*)$/m.exec(prompt);
  if (fixed) return fixed[1]!;
  const haystack = input.toLowerCase();
  const phrases = [...prompt.matchAll(/"([^"\n]+)"/g)].map((match) => match[1]!);
  const hit = phrases.find((phrase) => haystack.includes(phrase.toLowerCase()));
  if (event === 'pre_tool_call') {
    return JSON.stringify(
      hit === undefined ? { decision: 'allow' } : { decision: 'block', reason: `stand-in judge: the input contains "${hit}"` },
    );
  }
  return JSON.stringify({ context: hit === undefined ? '' : prompt });
};

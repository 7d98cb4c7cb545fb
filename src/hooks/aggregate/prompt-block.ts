import { isObject } from './is-object.ts';

/** The result of a `pre_llm_call` hook that stops the turn before the model (Claude Code's UserPromptSubmit block). */
export interface PromptBlock {
  action: 'block_turn';
  message: string;
}

/**
 * The first `{"action": "block_turn", "message"}` among `pre_llm_call` results (a hookgate
 * extension, docs/reference/claude-code.md): the turn ends before the model with `message`
 * as the reply. `undefined` means the turn goes on.
 *
 * @example
 * promptBlockMessage([{ context: 'x' }, { action: 'block_turn', message: 'not here' }]) // 'not here'
 */
export function promptBlockMessage(results: readonly unknown[]): string | undefined {
  for (const result of results) {
    try {
      if (isObject(result) && result.action === 'block_turn' && typeof result.message === 'string' && result.message !== '')
        return result.message;
    } catch {
      // A getter that throws: not a directive.
    }
  }
  return undefined;
}

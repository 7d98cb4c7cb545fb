import { hookKind } from '../catalogue.ts';
import { blockMessage } from './block-message.ts';
import { firstNonEmptyString } from './first-non-empty-string.ts';
import { firstString } from './first-string.ts';
import { gatewayDispatchAction } from './gateway-dispatch-action.ts';
import { joinLlmContext } from './llm-context.ts';
import { HookgateError } from '../../errors/hookgate-error.ts';

/**
 * The aggregated answer of one hook's results, exactly as `POST /v1/hooks/{hook}` answers
 * it (architecture §4). Observer hooks (and unknown names) answer `{}`.
 *
 * @example
 * hookAnswer('pre_tool_call', [{ action: 'block', message: 'no' }]); // { action: 'block', message: 'no' }
 * hookAnswer('transform_llm_output', ['', 'x']); // { response_text: 'x' }
 */
export function hookAnswer(hook: string, results: readonly unknown[]): Record<string, unknown> {
  switch (hook) {
    case 'pre_tool_call': {
      const message = blockMessage(results);
      return message === undefined ? { action: 'allow' } : { action: 'block', message };
    }
    case 'pre_llm_call': {
      const context = joinLlmContext(results);
      return context === undefined ? {} : { context };
    }
    case 'transform_tool_result': {
      const result = firstString(results);
      return result === undefined ? {} : { result };
    }
    case 'transform_terminal_output': {
      const output = firstString(results);
      return output === undefined ? {} : { output };
    }
    case 'transform_llm_output': {
      const text = firstNonEmptyString(results);
      return text === undefined ? {} : { response_text: text };
    }
    case 'pre_gateway_dispatch':
      return gatewayDispatchAction(results);
    default:
      if (hookKind(hook) !== 'observer') throw new MissingAggregationRuleError(`no aggregation rule for decision hook ${hook}`);
      return {};
  }
}

/** A decision hook the catalogue names without a rule here: a bug in hookgate, caught by the catalogue's tests. */
export class MissingAggregationRuleError extends HookgateError {
  override readonly name = 'MissingAggregationRuleError';
}

import { isObject } from './is-object.ts';

/** The `pre_gateway_dispatch` decision, in the `/v1/hooks/pre_gateway_dispatch` shape. */
export type GatewayDispatchAction =
  | { action: 'skip'; reason?: unknown }
  | { action: 'rewrite'; text: string }
  | { action: 'allow' };

/**
 * The `pre_gateway_dispatch` rule (hook-semantics §1.12): the first **recognised** action
 * wins. `skip` drops the message (its `reason` is kept when given); `rewrite` ends the scan
 * and replaces the text only when `text` is a string (`""` included), otherwise it counts as
 * allow; `allow` ends the scan; other values and non-objects are skipped.
 *
 * @example
 * gatewayDispatchAction([{ action: 'SKIP' }, { action: 'rewrite', text: 42 }, { action: 'skip' }]); // { action: 'allow' }
 */
export function gatewayDispatchAction(results: readonly unknown[]): GatewayDispatchAction {
  for (const result of results) {
    let action: GatewayDispatchAction | undefined;
    try {
      action = actionOf(result);
    } catch {
      action = undefined; // a getter that throws: not a recognised action
    }
    if (action) return action;
  }
  return { action: 'allow' };
}

function actionOf(result: unknown): GatewayDispatchAction | undefined {
  if (!isObject(result)) return undefined;
  switch (result.action) {
    case 'skip':
      return result.reason === undefined || result.reason === null
        ? { action: 'skip' }
        : { action: 'skip', reason: result.reason };
    case 'rewrite':
      return typeof result.text === 'string' ? { action: 'rewrite', text: result.text } : { action: 'allow' };
    case 'allow':
      return { action: 'allow' };
    default:
      return undefined;
  }
}

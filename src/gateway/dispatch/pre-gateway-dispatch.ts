import type { HookEngine } from '../../hooks/hook-engine.ts';
import { errorText } from '../../errors/error-text.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { DispatchEventView } from './dispatch-hook-kwargs.ts';

export type DispatchDecision = { action: 'skip'; reason: string } | { action: 'rewrite'; text: string } | { action: 'allow' };

/**
 * Runs `pre_gateway_dispatch` (hook-semantics §1.12) for one event; the engine answers the
 * aggregated first-recognised action. Internal events bypass the hook; a failing
 * invocation is a warning and counts as allow.
 *
 * @example
 * const decision = await preGatewayDispatch(engine, event, { gateway, session_store }, log.warn);
 */
export async function preGatewayDispatch(
  engine: HookEngine,
  event: MessageEvent,
  handles: { gateway: object; session_store: object },
  warn: (message: string) => void,
): Promise<DispatchDecision> {
  if (event.internal) return { action: 'allow' };
  try {
    // No callback, no result: the same as allow, without building the kwargs (the hot path).
    if (!engine.hasHook('pre_gateway_dispatch')) return { action: 'allow' };
    const answer = await engine.invoke('pre_gateway_dispatch', {
      event: DispatchEventView.of(event),
      gateway: handles.gateway,
      session_store: handles.session_store,
    });
    if (answer.action === 'skip') return { action: 'skip', reason: typeof answer.reason === 'string' ? answer.reason : '' };
    if (answer.action === 'rewrite' && typeof answer.text === 'string') return { action: 'rewrite', text: answer.text };
    return { action: 'allow' };
  } catch (error) {
    warn(`pre_gateway_dispatch failed, continuing as allow: ${errorText(error)}`);
    return { action: 'allow' };
  }
}

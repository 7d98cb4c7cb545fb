import type { HookEngine } from '../../hooks/hook-engine.ts';
import { errorText } from '../../errors/error-text.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { attachmentSummary } from '../../messaging/attachment.ts';

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
      event: hookViewOf(event),
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

/**
 * A copy of the event for the hooks: its attachments as kind, MIME type (the platform's
 * claim), size and name, without the download reference (which may be a token-bearing URL
 * or the local adapter's bytes). A hook can skip a message because of them (docs/attachments.md).
 */
function hookViewOf(event: MessageEvent): Record<string, unknown> {
  const { attachments, ...rest } = structuredClone(event);
  return attachments ? { ...rest, attachments: attachments.map(attachmentSummary) } : rest;
}

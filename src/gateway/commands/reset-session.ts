import type { PayloadOf } from '../../hooks/catalogue.ts';
import type { HookEngine, ObservedType } from '../../hooks/hook-engine.ts';
import { errorText } from '../../errors/error-text.ts';
import type { ApprovalStore } from '../../store/approval-store.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';

export const RESET_REPLY = '✨ New session started.';

/**
 * `/new`, `/reset`, `/clear` in the order of hook-semantics §1.13.1: snapshot and stop the
 * running turn, rotate, clear session approvals, `on_session_finalize`, `session:end`,
 * `session:reset`, `on_session_reset`; then the reply, whatever any hook did. The four run
 * here, each awaited before the next (`inline`), and are then published marked as run: the
 * observer queue does not keep order, so handing them to the observer consumer would let
 * plugin and gateway hooks of one boundary run in any order.
 *
 * @example
 * const reply = await resetSession({ engine, sessions, approvals, warn }, event, sessionKey);
 */
export async function resetSession(
  deps: { engine: HookEngine; sessions: SessionStore; approvals: ApprovalStore; warn: (message: string) => void },
  event: MessageEvent,
  sessionKey: string,
): Promise<string> {
  const { engine, sessions, approvals, warn } = deps;
  const { platform, user_id, chat_id, thread_id, chat_type } = event.source;
  // 1. Snapshot, and ask a running turn to stop (its agent is the old session's).
  const snapshot = await sessions.current(sessionKey);
  await sessions.requestStop(sessionKey);
  // 2. Swap. With no previous entry this also is step 7 (the new session is created now).
  const { current } = await sessions.rotate(sessionKey, { platform, chat_id, thread_id, user_id, chat_type });
  const oldId = snapshot?.session_id ?? null;
  const newId = current.session_id;
  // 3. Session-scoped approvals and grants go with the old session.
  if (snapshot) await approvals.clearSession(sessionKey, snapshot.session_id);

  const fire = async <T extends ObservedType>(type: T, payload: PayloadOf<T>, sessionId: string | null) => {
    try {
      await engine.observe(type, payload, { inline: true, ...(sessionId ? { session_id: sessionId } : {}) });
    } catch (error) {
      warn(`${type} could not be emitted during reset of ${sessionKey}: ${errorText(error)}`);
    }
  };
  await fire(
    'on_session_finalize',
    { session_id: oldId, platform, reason: 'new_session', old_session_id: oldId, new_session_id: snapshot ? newId : null },
    oldId,
  );
  await fire('session:end', { platform, user_id, session_key: sessionKey }, oldId);
  await fire('session:reset', { platform, user_id, session_key: sessionKey }, oldId);
  await fire(
    'on_session_reset',
    { session_id: newId, platform, reason: 'new_session', old_session_id: oldId, new_session_id: newId },
    newId,
  );
  return RESET_REPLY;
}

import { PERMISSION_REQUEST_HOOK } from '../../hooks/shell/claude-event-gate.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import type { TurnHooks } from '../turn/turn-hooks.ts';
import type { DangerousMatch } from './dangerous-commands.ts';

/** What the PermissionRequest hooks said of a dangerous command: run it, refuse it, or ask the user. */
export type PermissionVerdict = { kind: 'allow' } | { kind: 'deny'; message: string } | { kind: 'ask' };

/** Asks the PermissionRequest hooks about one dangerous command before the chat is asked. */
export type PermissionAsker = (match: DangerousMatch, command: string, sessionId: string) => Promise<PermissionVerdict>;

/**
 * The PermissionRequest step of the approval gate (docs/reference/claude-code.md): the
 * `claude_event: PermissionRequest` hooks get the command waiting for approval; any deny wins,
 * else any allow runs it without asking, else the chat is asked as usual. Hooks that error,
 * time out or say nothing leave the question to the user.
 *
 * @example
 * const gate = chatApprovalGate(approvals, chat, permissionRequestHooks(hooks, sessionKey));
 */
export function permissionRequestHooks(hooks: TurnHooks, sessionKey: string): PermissionAsker {
  return async (match, command, sessionId) => {
    if (!hooks.has(PERMISSION_REQUEST_HOOK)) return { kind: 'ask' };
    const results = await hooks.decide(PERMISSION_REQUEST_HOOK, {
      command,
      description: match.description,
      pattern_key: match.pattern_key,
      pattern_keys: [...match.pattern_keys],
      session_key: sessionKey,
      surface: 'gateway',
      session_id: sessionId,
    });
    const answers = results.filter(isPlainObject);
    const deny = answers.find((answer) => answer.permission === 'deny');
    if (deny)
      return { kind: 'deny', message: typeof deny.message === 'string' ? deny.message : 'Denied by a PermissionRequest hook.' };
    return answers.some((answer) => answer.permission === 'allow') ? { kind: 'allow' } : { kind: 'ask' };
  };
}

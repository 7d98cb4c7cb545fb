import type { ApprovalStore } from '../../store/approval-store.ts';
import type { ApprovalGate } from '../turn/execute-tool-call.ts';
import { detectDangerousCommand } from './dangerous-commands.ts';
import type { PermissionAsker } from './permission-request-hooks.ts';

/**
 * The approval gate of a chat turn: a dangerous command needs an answer unless every one of
 * its pattern keys is already granted for this session, this chat (`always`) or globally.
 * `permission` (the PermissionRequest hooks) answers before the user is asked: allow runs
 * the command, deny refuses it.
 *
 * @example
 * const gate = chatApprovalGate(deps.approvals, { platform: 'telegram', chat_id: '42' });
 * await gate.check('rm -rf /', sessionId); // the DangerousMatch, or undefined when granted
 */
export function chatApprovalGate(
  approvals: Pick<ApprovalStore, 'isGranted'>,
  chat: { platform: string; chat_id: string },
  permission?: PermissionAsker,
): ApprovalGate {
  return {
    canAsk: true,
    async check(command, sessionId) {
      const match = await detectDangerousCommand(command);
      if (!match) return undefined;
      const where = { session_id: sessionId, platform: chat.platform, chat_id: chat.chat_id };
      const granted = await Promise.all(match.pattern_keys.map((key) => approvals.isGranted(key, where)));
      if (granted.every(Boolean)) return undefined;
      // Claude Code's PermissionRequest hooks answer before the user is asked.
      const verdict = permission ? await permission(match, command, sessionId) : { kind: 'ask' as const };
      if (verdict.kind === 'allow') return undefined;
      if (verdict.kind === 'deny') return { ...match, refused: verdict.message };
      return match;
    },
  };
}

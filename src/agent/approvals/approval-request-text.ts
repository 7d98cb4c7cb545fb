import { escapeControlCharacters } from '../../logging/escape-control-characters.ts';
import type { PendingApproval } from '../../store/approval-store.ts';

/**
 * The chat message that asks for an approval: what matched, the command, the four answers
 * (`/approve`, `/approve session`, `/approve always`, `/deny`) and how long the turn waits.
 * The command is shown on one line with its control and bidirectional characters escaped
 * (`\n`, `\u202e`): what the user approves reads as what runs, and the command cannot add
 * lines of its own to the prompt.
 *
 * @example
 * approvalRequestText({ description: 'recursive delete', command: 'rm -rf build' }, 300);
 * // '⚠️ This command needs your approval (recursive delete):\n    rm -rf build\nReply /approve …'
 */
export function approvalRequestText(approval: Pick<PendingApproval, 'description' | 'command'>, timeoutSeconds: number): string {
  return [
    `⚠️ This command needs your approval (${approval.description}):`,
    `    ${escapeControlCharacters(approval.command)}`,
    'Reply /approve to run it once, /approve session to allow this kind of command for this session,',
    `/approve always to always allow it, or /deny. Without an answer within ${timeoutSeconds} s it is not run.`,
  ].join('\n');
}

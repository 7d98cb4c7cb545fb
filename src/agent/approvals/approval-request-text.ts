import type { PendingApproval } from '../../store/approval-store.ts';

/**
 * The chat message that asks for an approval: what matched, the command, the four answers
 * (`/approve`, `/approve session`, `/approve always`, `/deny`) and how long the turn waits.
 *
 * @example
 * approvalRequestText({ description: 'recursive delete', command: 'rm -rf build' }, 300);
 * // '⚠️ This command needs your approval (recursive delete):\n    rm -rf build\nReply /approve …'
 */
export function approvalRequestText(approval: Pick<PendingApproval, 'description' | 'command'>, timeoutSeconds: number): string {
  return [
    `⚠️ This command needs your approval (${approval.description}):`,
    `    ${approval.command}`,
    'Reply /approve to run it once, /approve session to allow this kind of command for this session,',
    `/approve always to always allow it, or /deny. Without an answer within ${timeoutSeconds} s it is not run.`,
  ].join('\n');
}

import type { PendingApproval } from '../../store/approval-store.ts';

/**
 * The kwargs of `pre_approval_request` and (with `choice` added) `post_approval_response`
 * (hook-semantics §1.15); a chat approval's `surface` is always `"gateway"`.
 *
 * @example
 * await hooks.observe('post_approval_response', { ...approvalHookKwargs(record), choice: 'once' });
 */
export function approvalHookKwargs(
  approval: Pick<PendingApproval, 'command' | 'description' | 'pattern_key' | 'pattern_keys' | 'session_key'>,
) {
  return {
    command: approval.command,
    description: approval.description,
    pattern_key: approval.pattern_key,
    pattern_keys: [...approval.pattern_keys],
    session_key: approval.session_key,
    surface: 'gateway',
  };
}

/**
 * A `command:*` decision hook (hook-semantics §2.5), run with emitCollect before the
 * command: return `{decision: 'deny' | 'handled' | 'rewrite' | 'allow', ...}` or nothing.
 * Admins come from COMMAND_POLICY_ADMINS (`telegram:123,slack:U1`).
 */
export function handle(_eventType: string, context: Record<string, unknown>): Record<string, unknown> | null {
  const admins = (process.env.COMMAND_POLICY_ADMINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const who = `${String(context.platform ?? '')}:${String(context.user_id ?? '')}`;
  switch (context.command) {
    case 'stop':
      return admins.includes(who)
        ? { decision: 'allow' }
        : { decision: 'deny', message: 'Only admins may /stop a running turn.' };
    case 'reset':
      // One spelling for everyone: /reset is dispatched as /new with the same arguments.
      return { decision: 'rewrite', command_name: 'new', raw_args: context.raw_args ?? '' };
    case 'model':
      return String(context.args ?? '').trim() === '' ? { decision: 'handled', message: 'Usage: /model <name>' } : null;
    default:
      return null;
  }
}

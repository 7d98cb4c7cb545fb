import type { HooksContext } from './hooks-context.ts';
import { say } from './hooks-output.ts';

/** `hookgate hooks revoke <command>` (hook-semantics §4.3): exact match, every event. */
export async function revokeHook(ctx: HooksContext, command: string): Promise<number> {
  const removed = await ctx.allowlist.revoke(command);
  if (removed === 0) {
    say(`No allowlist entry found for command: ${command}`);
    return 0;
  }
  say(`Removed ${removed} allowlist ${removed === 1 ? 'entry' : 'entries'} for: ${command}`);
  say('Note: CLI and gateway processes already running keep their registered callbacks until they restart.');
  return 0;
}

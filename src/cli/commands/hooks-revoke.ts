import type { HooksContext } from './hooks-context.ts';
import { say } from './hooks-output.ts';

/** `hookgate hooks revoke <command>` (hook-semantics §4.3): exact match, every event. */
export async function revokeHook(ctx: HooksContext, command: string): Promise<number> {
  const removed = await ctx.allowlist.revoke(command);
  if (removed === 0) {
    say(`No allowlist entry found for command: ${command}`);
    return 0;
  }
  // The reference's words, "entry/entries" included: scripts and tests match this line.
  say(`Removed ${removed} allowlist entry/entries for: ${command}`);
  say('Note: currently running CLI / gateway processes keep their already-registered callbacks until they restart.');
  return 0;
}

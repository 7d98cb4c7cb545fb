import { isHookName, VALID_HOOK_NAMES_TEXT } from '../../hooks/catalogue.ts';
import { approvalFor, askOnTerminal } from '../../hooks/shell/consent/consent.ts';
import type { HooksContext } from './hooks-context.ts';
import { OK, say, WARN } from './hooks-output.ts';

/**
 * `hookgate hooks approve <event> <command>`: records consent explicitly — for serverless
 * runs, which have no TTY to prompt on. Asks for confirmation on a TTY unless `--yes`; without
 * a TTY (a script, CI) the command line, which names the pair, is the consent.
 * Exit 0 approved, 1 not approved, 2 invalid input.
 */
export async function approveHook(ctx: HooksContext, event: string, command: string, yes: boolean): Promise<number> {
  if (!isHookName(event)) {
    say(`Unknown event: '${event}'`);
    say(`Valid events: ${VALID_HOOK_NAMES_TEXT}`);
    return 2;
  }
  if (!ctx.entries.some((e) => e.event === event && e.command === command)) {
    say(`${WARN()} [${event}] ${command} is not configured in ${ctx.configPath}; approving it anyway.`);
  }
  if (!yes && process.stdin.isTTY) {
    if (
      !(await askOnTerminal(
        event,
        command,
        { input: process.stdin, output: process.stdout },
        ctx.entries.some((e) => e.command === command && e.type === 'http') ? 'http' : 'command',
      ))
    ) {
      say('Not approved; nothing was written.');
      return 1;
    }
  }
  const recorded = await ctx.allowlist.record(approvalFor(event, command));
  if (!recorded) return 1;
  say(`${OK()} Approved [${event}] ${command} in ${ctx.allowlist.location}`);
  return 0;
}

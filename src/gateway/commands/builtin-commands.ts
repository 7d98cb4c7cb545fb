import type { HookEngine } from '../../hooks/hook-engine.ts';
import type { PluginCommandInfo } from '../../hooks/plugins/plugin-commands.ts';
import type { ApprovalChoice, ApprovalStore } from '../../store/approval-store.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { TurnSender } from '../gateway-deps.ts';
import type { MessageEvent } from '../message-event.ts';
import { resetSession } from './reset-session.ts';
import { BUILTIN_COMMANDS, type SlashCommand } from './slash-command.ts';

export interface CommandContext {
  engine: HookEngine;
  sessions: SessionStore;
  approvals: ApprovalStore;
  turnQueue: TurnSender;
  warn: (message: string) => void;
  event: MessageEvent;
  sessionKey: string;
  deliveryId: string;
  now: Date;
}

/**
 * The `/help` text: the built-ins, then the plugins' commands with their args hint and
 * description (and the plugin's name, so an operator knows where a command comes from).
 *
 * @example
 * helpReply([{ name: 'metrics', plugin: 'stats', description: 'hook metrics', args_hint: 'dias:N' }]);
 * // '… /metrics dias:N — hook metrics (plugin stats) …'
 */
export function helpReply(pluginCommands: readonly PluginCommandInfo[] = []): string {
  return [
    'Commands:',
    ...Object.entries(BUILTIN_COMMANDS).map(([name, def]) => `/${name} — ${def.help}`),
    ...pluginCommands.map(
      (c) => `/${c.name}${c.args_hint ? ` ${c.args_hint}` : ''} — ${c.description || 'no description'} (plugin ${c.plugin})`,
    ),
    'Anything else goes to the agent.',
  ].join('\n');
}

/** `/help` with no plugin commands. */
export const HELP_REPLY = helpReply();

const APPROVE_SCOPES: Record<string, ApprovalChoice> = { '': 'once', once: 'once', session: 'session', always: 'always' };
const APPROVED_REPLY: Record<ApprovalChoice, string> = {
  once: '✅ Approved once.',
  session: '✅ Approved for this session.',
  always: '✅ Approved always.',
  deny: '❌ Denied.',
  timeout: '⌛ Timed out.',
};

/**
 * Runs one built-in command and answers the reply text (`undefined` = no reply).
 *
 * @example
 * const reply = await runBuiltinCommand({ command: 'status', rawCommand: 'status', args: '' }, ctx);
 */
export async function runBuiltinCommand(command: SlashCommand, ctx: CommandContext): Promise<string | undefined> {
  switch (command.command) {
    case 'new':
      return resetSession(ctx, ctx.event, ctx.sessionKey);
    case 'stop':
      await ctx.sessions.requestStop(ctx.sessionKey, ctx.now);
      return '⏹ Stopping the current turn.';
    case 'help':
      return helpReply(ctx.engine.pluginCommands?.list() ?? []);
    case 'status': {
      const session = await ctx.sessions.current(ctx.sessionKey);
      const pending = await ctx.approvals.pending(ctx.sessionKey);
      if (!session) return `No session yet for this conversation (${ctx.sessionKey}).`;
      return [
        `Session: ${session.session_id}`,
        `Turns: ${session.turn_count}`,
        `Started: ${session.created_at}`,
        `Last active: ${session.updated_at}`,
        `Pending approval: ${pending ? pending.command : 'none'}`,
      ].join('\n');
    }
    case 'approve':
    case 'deny': {
      const choice = command.command === 'deny' ? 'deny' : APPROVE_SCOPES[command.args.toLowerCase()];
      if (!choice) return 'Usage: /approve [session|always]';
      const pending = await ctx.approvals.pending(ctx.sessionKey);
      if (!pending) return 'There is no pending approval in this conversation.';
      // The resume is enqueued before the answer is recorded: if the send fails, the platform's
      // retry still finds the approval pending (recorded first, it would find nothing and the
      // suspended turn would never resume). The resumed turn records the answer itself when
      // this process could not; the store's first answer wins either way.
      await ctx.turnQueue.send({
        v: 1,
        kind: 'approval',
        delivery_id: ctx.deliveryId,
        session_key: ctx.sessionKey,
        received_at: ctx.now.toISOString(),
        approval_id: pending.approval_id,
        choice,
      });
      if (!(await ctx.approvals.answer(pending.approval_id, choice, ctx.now))) {
        const recorded = (await ctx.approvals.get(pending.approval_id))?.choice;
        if (recorded !== choice) return 'That approval was already answered.';
      }
      return APPROVED_REPLY[choice];
    }
  }
}

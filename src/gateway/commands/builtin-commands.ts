import { isListed, type AllowedUsers } from '../../config/allowed-users.ts';
import { escapeControlCharacters } from '../../logging/escape-control-characters.ts';
import type { HookEngine } from '../../hooks/hook-engine.ts';
import type { PluginCommandInfo } from '../../hooks/plugins/plugin-commands.ts';
import type { ApprovalChoice, ApprovalStore } from '../../store/approval-store.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { TurnSender } from '../gateway-deps.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { resetSession } from './reset-session.ts';
import { toolsReply } from './tools-reply.ts';
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
  /** `HOOKGATE_APPROVERS`: may answer any approval and grant `always` for every chat. */
  approvers?: AllowedUsers;
  /** The deployment's model settings, named by `/model` (never its URL or key). */
  model?: { name?: string; baseUrl?: string };
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

const APPROVE_SCOPES: Record<string, { choice: ApprovalChoice; global?: true }> = {
  '': { choice: 'once' },
  once: { choice: 'once' },
  session: { choice: 'session' },
  always: { choice: 'always' },
  'always global': { choice: 'always', global: true },
};
const APPROVED_REPLY: Record<ApprovalChoice, string> = {
  once: '✅ Approved once.',
  session: '✅ Approved for this session.',
  always: '✅ Approved always in this chat.',
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
    case 'stop': {
      const session = await ctx.sessions.current(ctx.sessionKey);
      const running = session?.last_turn;
      // A turn that ended has recorded itself (updated_at) after it started; a new session's
      // updated_at is its first turn's start.
      if (!running || Date.parse(session.updated_at) > Date.parse(running.started_at))
        return 'Nothing is running in this conversation.';
      // A turn belongs to the user who asked for it; in a group, others may not stop it.
      if (!isOwnerOrApprover(ctx, running)) {
        ctx.warn(
          `/stop from ${who(ctx)} refused: turn ${running.turn_id} belongs to ${running.platform}:${running.user_id ?? 'unknown'}`,
        );
        return '⛔ Only the user who asked for the running turn, or an approver, can stop it. Nothing was changed.';
      }
      await ctx.sessions.requestStop(ctx.sessionKey, ctx.now, running.turn_id);
      return '⏹ Stopping the current turn.';
    }
    case 'help':
      return helpReply(ctx.engine.pluginCommands?.list() ?? []);
    case 'tools':
      return toolsReply(ctx.engine.config ?? {}, ctx.event.source.platform, ctx.event.source.chat_id);
    case 'model':
      return modelReply(ctx.model, command.args);
    case 'status': {
      const session = await ctx.sessions.current(ctx.sessionKey);
      const pending = await ctx.approvals.pending(ctx.sessionKey);
      if (!session) return `No session yet for this conversation (${ctx.sessionKey}).`;
      // The command waiting for approval is its requester's business (and an approver's), not the whole group's.
      const pendingLine = !pending
        ? 'none'
        : isOwnerOrApprover(ctx, pending.requested_by)
          ? escapeControlCharacters(pending.command)
          : `a command of ${pending.requested_by.platform}:${pending.requested_by.user_id ?? 'unknown'} (only they or an approver see it)`;
      return [
        `Session: ${session.session_id}`,
        `Turns: ${session.turn_count}`,
        `Started: ${session.created_at}`,
        `Last active: ${session.updated_at}`,
        `Pending approval: ${pendingLine}`,
      ].join('\n');
    }
    case 'approve':
    case 'deny': {
      const scope =
        command.command === 'deny'
          ? { choice: 'deny' as const }
          : APPROVE_SCOPES[command.args.trim().toLowerCase().replace(/\s+/g, ' ')];
      if (!scope) return 'Usage: /approve [session|always|always global]';
      const pending = await ctx.approvals.pending(ctx.sessionKey);
      if (!pending) return 'There is no pending approval in this conversation.';
      // Approvals belong to someone: the user whose turn waits, or an operator in HOOKGATE_APPROVERS.
      const { platform, user_id: userId } = ctx.event.source;
      const approver = isListed(ctx.approvers, platform, userId);
      const requester = pending.requested_by;
      if (!isOwnerOrApprover(ctx, requester)) {
        ctx.warn(
          `/${command.command} from ${who(ctx)} refused: approval ${pending.approval_id} belongs to ${requester.platform}:${requester.user_id ?? 'unknown'}`,
        );
        return '⛔ Only the user who asked for this command, or an approver, can answer this approval. Nothing was changed.';
      }
      if (scope.global && !approver) {
        return '⛔ Only an approver (HOOKGATE_APPROVERS) can grant a command for every chat. Use /approve always to allow it in this chat.';
      }
      const answeredBy = `${platform}:${userId ?? 'unknown'}`;
      const by = { answered_by: answeredBy, ...(scope.global ? { global: true } : {}) };
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
        choice: scope.choice,
        ...by,
      });
      if (!(await ctx.approvals.answer(pending.approval_id, scope.choice, ctx.now, by))) {
        const recorded = await ctx.approvals.summary(pending.approval_id);
        if (recorded?.choice !== scope.choice || recorded.answered_by !== answeredBy)
          return 'That approval was already answered.';
      }
      return scope.global ? '✅ Approved always, in every chat.' : APPROVED_REPLY[scope.choice];
    }
  }
}

/**
 * The `/model` answer: the model turns use, named as the operator configured it (the URL and
 * key stay private). The model is per deployment (HOOKGATE_MODEL*), so `/model <name>` says
 * so rather than pretending to switch; a `command:model` hook can answer it instead (the
 * command-policy example gives a bare `/model` a usage line).
 */
function modelReply(model: CommandContext['model'], args: string): string {
  const current = !model?.baseUrl
    ? 'the built-in stand-in model (HOOKGATE_MODEL_BASE_URL is not set)'
    : model.name
      ? escapeControlCharacters(model.name)
      : 'gpt-4o-mini (HOOKGATE_MODEL is not set)'; // agent/model's DEFAULT_REMOTE_MODEL (gateway may not import agent)
  const line = `Model: ${current}`;
  return args === ''
    ? line
    : `${line}\nThe model is set for the whole gateway (HOOKGATE_MODEL); /model cannot switch it per chat.`;
}

/** Whether the sender is `owner` (same platform and user id; an unknown id is nobody) or an approver. */
function isOwnerOrApprover(ctx: CommandContext, owner: { platform: string; user_id: string | null }): boolean {
  const { platform, user_id: userId } = ctx.event.source;
  const isOwner = userId !== null && owner.user_id !== null && owner.platform === platform && owner.user_id === userId;
  return isOwner || isListed(ctx.approvers, platform, userId);
}

function who(ctx: CommandContext): string {
  return `${ctx.event.source.platform}:${ctx.event.source.user_id ?? 'unknown'}`;
}

import type { PluginCommands } from '../../hooks/hook-engine.ts';
import type { PluginCommandContext } from '../../hooks/plugins/plugin-commands.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { TraceStore } from '../../store/trace-store.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import type { PluginSlashCommand } from './slash-command.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * Runs a plugin's slash command after the `command:<name>` hooks let it through
 * (hook-semantics §2.5): the handler gets the argument text and a context with the
 * conversation's current session and its hook traces, and answers the reply text. A failing
 * or slow handler answers a short error (the registry logs why); nothing here throws because
 * of the plugin.
 *
 * @example
 * const reply = await runPluginCommand(command, { commands: engine.pluginCommands, sessions, traces, event, sessionKey });
 */
export async function runPluginCommand(
  command: PluginSlashCommand,
  deps: {
    commands: PluginCommands;
    sessions: SessionStore;
    traces?: Pick<TraceStore, 'listSession'> | undefined;
    event: MessageEvent;
    sessionKey: string;
    warn: (message: string) => void;
  },
): Promise<string | undefined> {
  const { event, sessionKey } = deps;
  let sessionId: string | null = null;
  try {
    sessionId = (await deps.sessions.current(sessionKey))?.session_id ?? null;
  } catch (error) {
    deps.warn(`/${command.command}: the current session could not be read: ${errorText(error)}`);
  }
  const context: PluginCommandContext = {
    command: command.command,
    raw_command: command.rawCommand,
    platform: event.source.platform,
    user_id: event.source.user_id,
    chat_id: event.source.chat_id,
    session_key: sessionKey,
    session_id: sessionId,
    traces: async () => (sessionId && deps.traces ? deps.traces.listSession(sessionId) : []),
  };
  const outcome = await deps.commands.run(command.command, command.args, context);
  return outcome.reply;
}

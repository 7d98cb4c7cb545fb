/** The gateway's built-in commands, by canonical name, with their aliases. */
export const BUILTIN_COMMANDS = {
  new: { aliases: ['reset', 'clear'], help: 'start a new session (also /reset, /clear)' },
  stop: { aliases: [], help: 'stop the running turn' },
  status: { aliases: [], help: 'show this conversation’s session' },
  help: { aliases: [], help: 'list the commands' },
  tools: { aliases: [], help: 'list the tools the agent may use in this chat' },
  model: { aliases: [], help: 'show the model this gateway’s turns use' },
  approve: { aliases: [], help: 'approve the pending command: /approve [session|always|always global]' },
  deny: { aliases: [], help: 'deny the pending command' },
} as const;
export type CommandName = keyof typeof BUILTIN_COMMANDS;

const ALIASES = new Map<string, CommandName>(
  (Object.entries(BUILTIN_COMMANDS) as [CommandName, { aliases: readonly string[] }][]).flatMap(([name, def]) => [
    [name, name] as const,
    ...def.aliases.map((alias) => [alias, name] as const),
  ]),
);

export interface SlashCommand {
  /** Canonical name, aliases resolved. */
  readonly command: CommandName;
  /** The name as typed (may be an alias), without `/` and a Telegram `@bot` suffix. */
  readonly rawCommand: string;
  /** The argument string, trimmed. */
  readonly args: string;
}

/** A command a plugin registered (`ctx.register_command`); `command` is its lower-case name. */
export interface PluginSlashCommand {
  readonly plugin: true;
  readonly command: string;
  readonly rawCommand: string;
  readonly args: string;
}

/** Which plugin commands exist (the engine's `pluginCommands`). */
export interface PluginCommandLookup {
  get(name: string): unknown;
}

const COMMAND_TEXT = /^\/([A-Za-z0-9_-]+)(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/;

/**
 * A recognised built-in command, or `undefined` (plain text and unknown commands go to the agent).
 *
 * @example
 * parseSlashCommand('/Reset@my_bot now'); // { command: 'new', rawCommand: 'Reset', args: 'now' }
 */
export function parseSlashCommand(text: string): SlashCommand | undefined {
  const match = COMMAND_TEXT.exec(text.trim());
  if (!match) return undefined;
  const rawCommand = match[1]!;
  const command = ALIASES.get(rawCommand.toLowerCase());
  return command ? { command, rawCommand, args: (match[2] ?? '').trim() } : undefined;
}

/**
 * A built-in command, else a plugin command, else `undefined` (the text goes to the agent).
 * Built-ins win: a plugin cannot register their names.
 *
 * @example
 * resolveSlashCommand('/metrics dias:7', engine.pluginCommands); // { plugin: true, command: 'metrics', rawCommand: 'metrics', args: 'dias:7' }
 */
export function resolveSlashCommand(text: string, plugins?: PluginCommandLookup): SlashCommand | PluginSlashCommand | undefined {
  const builtin = parseSlashCommand(text);
  if (builtin || !plugins) return builtin;
  const match = COMMAND_TEXT.exec(text.trim());
  if (!match) return undefined;
  const rawCommand = match[1]!;
  const command = rawCommand.toLowerCase();
  if (plugins.get(command) === undefined) return undefined;
  return { plugin: true, command, rawCommand, args: (match[2] ?? '').trim() };
}

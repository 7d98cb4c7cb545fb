/** The gateway's built-in commands, by canonical name, with their aliases. */
export const BUILTIN_COMMANDS = {
  new: { aliases: ['reset', 'clear'], help: 'start a new session (also /reset, /clear)' },
  stop: { aliases: [], help: 'stop the running turn' },
  status: { aliases: [], help: 'show this conversation’s session' },
  help: { aliases: [], help: 'list the commands' },
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

/**
 * A recognised built-in command, or `undefined` (plain text and unknown commands go to the agent).
 *
 * @example
 * parseSlashCommand('/Reset@my_bot now'); // { command: 'new', rawCommand: 'Reset', args: 'now' }
 */
export function parseSlashCommand(text: string): SlashCommand | undefined {
  const match = /^\/([A-Za-z0-9_-]+)(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const rawCommand = match[1]!;
  const command = ALIASES.get(rawCommand.toLowerCase());
  return command ? { command, rawCommand, args: (match[2] ?? '').trim() } : undefined;
}

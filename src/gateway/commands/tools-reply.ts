import { BUILTIN_TOOL_NAMES, chatToolSetsFromConfig } from '../../config/chat-tool-sets.ts';

/**
 * The `/tools` answer: the tools the agent may use in this chat and the config.yaml entry
 * that says so (hook-semantics §5.10). The config's warnings are the turn runtime's to log.
 *
 * @example
 * toolsReply({ tools: { discord: [] } }, 'discord', '42');
 * // 'No tools in this chat (tools.discord).'
 */
export function toolsReply(config: unknown, platform: string, chatId: string): string {
  const set = chatToolSetsFromConfig(config).forChat(platform, chatId);
  const names = set.names === 'all' ? BUILTIN_TOOL_NAMES : [...set.names];
  if (names.length === 0) return `No tools in this chat (${set.source}).`;
  return [`Tools in this chat (${set.source}):`, ...names.map((name) => `• ${name}`)].join('\n');
}

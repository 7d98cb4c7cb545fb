import * as z from '../validation/zod.ts';
import type { HookLogger } from '../hooks/hook-logger.ts';
import { isPlainObject } from '../hooks/python-truthiness.ts';
import { PLATFORM_NAMES } from './deployment-config.ts';

/**
 * The built-in tools by name, for what needs the names without the tools (the gateway's
 * `/tools`, the config check). `src/agent/tools/tool-set.ts` holds the tools themselves; a
 * test keeps the two lists equal.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = ['terminal', 'read_file', 'write_file', 'patch', 'delegate_task'];

/** The tools one chat may use (config.yaml `tools:`, docs/reference/configuration.md "tools"). */
export interface ChatToolSet {
  /** `all` = every tool; otherwise the names (empty = no tools). */
  readonly names: ReadonlySet<string> | 'all';
  /** Where the set comes from, for the error a refused call gets and for `/tools`: `tools.chats["discord:42"]`, `tools.discord`, `tools.default`. */
  readonly source: string;
}

/** Every chat's tool set, from one config.yaml. */
export interface ChatToolSets {
  forChat(platform: string, chatId: string): ChatToolSet;
}

/** Without a `tools:` section every chat has every tool, as before tool sets existed. */
export const ALL_TOOLS: ChatToolSet = { names: 'all', source: 'tools.default (not set: all tools)' };

const ToolList = z.union([z.literal('all'), z.array(z.string().check(z.trim(), z.minLength(1, 'must be a tool name')))]);
type ToolList = z.infer<typeof ToolList>;

/** True when `set` lets the chat use `tool`. */
export function toolSetAllows(set: ChatToolSet, tool: string): boolean {
  return set.names === 'all' || set.names.has(tool);
}

/**
 * The set as the chat reads it: `all` or the names, comma-separated (`none` for `[]`).
 *
 * @example
 * describeToolSet({ names: new Set(), source: 'tools.discord' }); // 'none'
 */
export function describeToolSet(set: ChatToolSet): string {
  if (set.names === 'all') return 'all';
  return set.names.size === 0 ? 'none' : [...set.names].join(', ');
}

/**
 * The chats' tool sets from a parsed config.yaml (zod-validated). The most specific entry
 * wins: `tools.chats["<platform>:<chat_id>"]`, then `tools.<platform>`, then `tools.default`,
 * then every tool. An entry is a list of tool names or `all`; `[]` is no tools. A malformed
 * entry is a warning and counts as `[]`: a mistake closes the chat's tools rather than
 * opening them. Unknown platform keys and tool names are warnings (the names are kept).
 *
 * @example
 * const sets = chatToolSetsFromConfig({ tools: { default: ['read_file'], discord: [], chats: { 'telegram:42': 'all' } } }, logger);
 * sets.forChat('discord', '9').names; // Set {}
 * sets.forChat('telegram', '42').names; // 'all'
 */
export function chatToolSetsFromConfig(config: unknown, logger?: Pick<HookLogger, 'warn'>): ChatToolSets {
  const raw = isPlainObject(config) ? config.tools : undefined;
  if (raw === undefined || raw === null) return { forChat: () => ALL_TOOLS };
  const warn = (message: string) => logger?.warn(`tools: in config.yaml: ${message}`);
  if (!isPlainObject(raw)) {
    warn('must be a mapping (default, <platform>, chats); every chat gets no tools until it is fixed');
    return { forChat: () => ({ names: new Set(), source: 'tools (malformed)' }) };
  }
  const entry = (value: unknown, path: string): ToolList => {
    const parsed = ToolList.safeParse(value);
    if (!parsed.success) {
      warn(
        `${path} must be a list of tool names or "all" (${parsed.error.issues[0]?.message ?? 'invalid'}); that entry gives no tools`,
      );
      return [];
    }
    if (parsed.data !== 'all') {
      for (const name of parsed.data) if (!BUILTIN_TOOL_NAMES.includes(name)) warn(`${path} names an unknown tool "${name}"`);
    }
    return parsed.data;
  };
  const asSet = (list: ToolList, source: string): ChatToolSet => ({ names: list === 'all' ? 'all' : new Set(list), source });

  const byPlatform = new Map<string, ChatToolSet>();
  const byChat = new Map<string, ChatToolSet>();
  let fallback = ALL_TOOLS;
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'default') fallback = asSet(entry(value, 'tools.default'), 'tools.default');
    else if (key === 'chats') {
      if (!isPlainObject(value)) {
        warn('tools.chats must be a mapping of "<platform>:<chat_id>" to a list of tool names; ignoring it');
        continue;
      }
      for (const [chat, list] of Object.entries(value)) {
        if (!/^[a-z]+:.+$/.test(chat)) warn(`tools.chats key "${chat}" is not "<platform>:<chat_id>"`);
        const source = `tools.chats[${JSON.stringify(chat)}]`;
        byChat.set(chat, asSet(entry(list, source), source));
      }
    } else {
      if (!(PLATFORM_NAMES as readonly string[]).includes(key))
        warn(`"${key}" is not a platform (${PLATFORM_NAMES.join(', ')}), default or chats`);
      byPlatform.set(key, asSet(entry(value, `tools.${key}`), `tools.${key}`));
    }
  }
  return { forChat: (platform, chatId) => byChat.get(`${platform}:${chatId}`) ?? byPlatform.get(platform) ?? fallback };
}

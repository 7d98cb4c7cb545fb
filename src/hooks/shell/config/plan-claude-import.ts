import { isPlainObject } from '../../python-truthiness.ts';
import {
  CLAUDE_EVENT_IMPORT_CAVEAT,
  CLAUDE_EVENT_NOT_IMPORTABLE,
  CLAUDE_EVENTS_NEEDING_NAME,
  CLAUDE_MATCHED_FIELD,
  CLAUDE_EVENT_TO_HOOKGATE,
  CLAUDE_TOOL_TO_HOOKGATE,
} from './claude-code-names.ts';
import type { ClaudeHookHandler, ClaudeSettings } from './claude-settings.ts';
import { MAX_TIMEOUT_SECONDS, promptIdentity } from './parse-config.ts';
import { splitShellWords } from '../spawn/shell-words.ts';
import { errorText } from '../../../errors/error-text.ts';

/** The `hooks:` entry an imported handler becomes (written to config.yaml in this key order). */
export interface ImportedEntry {
  /** `http` / `prompt` handlers (hook-semantics §5.10); absent for a command. */
  type?: 'http' | 'prompt';
  matcher?: string;
  command?: string;
  url?: string;
  headers?: Record<string, string>;
  prompt?: string;
  model?: string;
  timeout?: number;
  payload: 'claude';
  /** The Claude Code event, where one hookgate event stands for several (claude-event-gate.ts). */
  claude_event?: string;
}

/** One Claude Code handler and what the import makes of it. */
export interface ClaudeImportRow {
  readonly claudeEvent: string;
  /** The group's matcher as written in the settings (`undefined` = none). */
  readonly claudeMatcher: string | undefined;
  /** The handler's command (or its type, for a handler that is not a command). */
  readonly claudeCommand: string;
  readonly status: 'imported' | 'present' | 'not-imported';
  /** The hookgate event (imported and present rows). */
  readonly event?: string;
  readonly entry?: ImportedEntry;
  /** Why it was not imported, or what changed on the way (matcher rewritten, `sh -c`, timeout clamped). */
  readonly note: string;
}

/** The hookgate tools a rewritten matcher must match at least one of. */
const HOOKGATE_TOOLS = ['terminal', 'read_file', 'write_file', 'patch', 'delegate_task'];
const TOOL_EVENTS = new Set(['pre_tool_call', 'post_tool_call']);
const SIMPLE_ALTERNATION = /^[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*$/;
/** Characters after which POSIX word splitting (hookgate's, §3.5) and a shell (Claude Code's) part ways. */
const SHELL_SYNTAX = /[|&;<>()$`*?[\]{}#\n]|\s~|^\s*\w+=/;

/**
 * Maps the `hooks` block of a Claude Code settings file to hookgate `hooks:` entries
 * (docs/reference/claude-code.md): events and matchers are renamed, `timeout` kept, every entry
 * gets `payload: claude`; `$CLAUDE_PROJECT_DIR` in a command becomes `projectDir`, and a command
 * that needs a shell runs through `sh -c` (Claude Code runs every command through one; hookgate
 * never does). Entries already in `existingHooks` (config.yaml's `hooks:` mapping) with the
 * same command and matcher are reported as present, never written twice.
 *
 * @example
 * planClaudeImport({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/h/v.py' }] }] } }, '/proj', {});
 * // [{ claudeEvent: 'PreToolUse', status: 'imported', event: 'pre_tool_call', entry: { matcher: 'terminal', command: '/h/v.py', payload: 'claude' }, … }]
 */
export function planClaudeImport(settings: ClaudeSettings, projectDir: string, existingHooks: unknown): ClaudeImportRow[] {
  const rows: ClaudeImportRow[] = [];
  const taken = new Set<string>();
  const fromFile = new Set<string>();
  if (isPlainObject(existingHooks)) {
    for (const [event, list] of Object.entries(existingHooks)) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (isPlainObject(item)) {
          const identity = identityOfConfigEntry(item);
          if (identity !== undefined) taken.add(keyOf(event, matcherOf(item.matcher), identity));
        }
      }
    }
  }
  for (const [claudeEvent, groups] of Object.entries(settings.hooks ?? {})) {
    const event = CLAUDE_EVENT_TO_HOOKGATE[claudeEvent];
    for (const group of groups) {
      for (const handler of group.hooks) {
        const base = { claudeEvent, claudeMatcher: group.matcher, claudeCommand: handlerLabel(handler) };
        if (!event) {
          rows.push({
            ...base,
            status: 'not-imported',
            note: CLAUDE_EVENT_NOT_IMPORTABLE[claudeEvent] ?? `no hookgate event corresponds to ${claudeEvent}`,
          });
          continue;
        }
        const notes: string[] = [];
        const body = handlerBody(handler, projectDir, notes);
        if (typeof body === 'string') {
          rows.push({ ...base, status: 'not-imported', note: body });
          continue;
        }
        const matcher = mapMatcher(claudeEvent, event, group.matcher, notes);
        if (matcher === false) {
          rows.push({ ...base, status: 'not-imported', note: notes.join('; ') });
          continue;
        }
        const { type, ...rest } = body;
        const entry: ImportedEntry = {
          ...(type ? { type } : {}),
          ...(matcher !== null ? { matcher } : {}),
          ...rest,
          ...(handler.timeout !== undefined ? { timeout: convertTimeout(handler.timeout, notes) } : {}),
          payload: 'claude',
          ...(CLAUDE_EVENTS_NEEDING_NAME.has(claudeEvent) ? { claude_event: claudeEvent } : {}),
        };
        const key = keyOf(event, matcher, identityOfConfigEntry(entry as unknown as Record<string, unknown>)!);
        if (fromFile.has(key)) {
          rows.push({
            ...base,
            status: 'not-imported',
            note: 'the same hook appears earlier in the settings file; imported once',
          });
          continue;
        }
        if (taken.has(key)) {
          rows.push({
            ...base,
            status: 'present',
            event,
            entry,
            note: `already in config.yaml under hooks.${event}; left as it is`,
          });
          continue;
        }
        fromFile.add(key);
        const caveat = CLAUDE_EVENT_IMPORT_CAVEAT[claudeEvent];
        if (caveat) notes.push(caveat);
        rows.push({ ...base, status: 'imported', event, entry, note: notes.join('; ') });
      }
    }
  }
  return rows;
}

/** What a Claude Code handler reads as in the import's table: its command, URL or prompt. */
function handlerLabel(handler: ClaudeHookHandler): string {
  if (handler.type === 'command') return handler.command ?? '';
  if (handler.type === 'http' && typeof handler.url === 'string') return handler.url;
  if ((handler.type === 'prompt' || handler.type === 'agent') && typeof handler.prompt === 'string')
    return `(${handler.type}) ${handler.prompt}`;
  return `(type: ${handler.type})`;
}

/**
 * The type-specific keys of the entry a handler becomes, or why it cannot become one:
 * `command` (with `$CLAUDE_PROJECT_DIR` and shell syntax converted), `http` (`url`,
 * `headers`), `prompt` (`prompt`, `model`). `agent` hooks (a sub-agent with tools) and
 * other types have no hookgate counterpart.
 */
function handlerBody(
  handler: ClaudeHookHandler,
  projectDir: string,
  notes: string[],
): Omit<ImportedEntry, 'matcher' | 'timeout' | 'payload'> | string {
  switch (handler.type) {
    case 'command':
      if (handler.command === undefined || handler.command.trim() === '') return 'the handler has no command';
      return { command: convertCommand(handler.command, projectDir, notes) };
    case 'http': {
      if (typeof handler.url !== 'string' || handler.url.trim() === '') return 'the http handler has no url';
      const headers = isPlainObject(handler.headers)
        ? Object.fromEntries(
            Object.entries(handler.headers).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
          )
        : {};
      if (Object.values(headers).some((value) => /\$\{?[A-Za-z_]/.test(value))) {
        notes.push('header values are sent as written: hookgate does not expand $VARIABLES in them');
      }
      return { type: 'http', url: handler.url.trim(), ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    }
    case 'prompt':
      if (typeof handler.prompt !== 'string' || handler.prompt.trim() === '') return 'the prompt handler has no prompt';
      return {
        type: 'prompt',
        prompt: handler.prompt.trim(),
        ...(typeof handler.model === 'string' && handler.model !== '' ? { model: handler.model } : {}),
      };
    case 'agent':
      return 'type "agent" hooks (a sub-agent with tools) have no hookgate counterpart; a prompt hook (type: prompt) judges without tools';
    default:
      return `type "${handler.type}" hooks have no hookgate counterpart (hookgate runs command, http and prompt hooks)`;
  }
}

/** The identity of a config.yaml entry (its consent key): command, url, or `prompt: <text>`. */
function identityOfConfigEntry(item: Record<string, unknown>): string | undefined {
  if (item.type === 'http') return typeof item.url === 'string' ? item.url.trim() : undefined;
  if (item.type === 'prompt') return typeof item.prompt === 'string' ? promptIdentity(item.prompt) : undefined;
  return typeof item.command === 'string' ? item.command.trim() : undefined;
}

function keyOf(event: string, matcher: string | null, command: string): string {
  return JSON.stringify([event, matcher, command]);
}

function matcherOf(raw: unknown): string | null {
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
}

/** `source` as a whole-value regular expression (Claude Code's matchers are), or undefined with a note naming `shown`. */
function compileMatcher(source: string, shown: string, notes: string[]): RegExp | undefined {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch (error) {
    notes.push(`matcher '${shown}' is not a valid regular expression here: ${errorText(error)}`);
    return undefined;
  }
}

/**
 * A matcher on an event whose matched field has fixed values in hookgate (`CLAUDE_MATCHED_FIELD`):
 * one that matches a value always would, so it is dropped (`null`); one that matches none never
 * would, so the hook is not imported (`false`). Claude Code matchers are regular expressions.
 */
function matcherOnFixedValues(
  claudeEvent: string,
  pattern: string,
  { field, values }: { field: string; values: readonly string[] },
  notes: string[],
): null | false {
  const compiled = compileMatcher(pattern, pattern, notes);
  if (!compiled) return false;
  const every = values.map((value) => `'${value}'`).join(' or ');
  if (values.some((value) => compiled.test(value))) {
    notes.push(`matcher '${pattern}' dropped: every ${claudeEvent} hookgate sends has ${field} ${every}, which it matches`);
    return null;
  }
  notes.push(`matcher '${pattern}' never matches here: every ${claudeEvent} hookgate sends has ${field} ${every}`);
  return false;
}

/**
 * The hookgate matcher for a Claude Code one: `null` = every tool, `false` = cannot import
 * (the reason is in `notes`). Tool names are renamed inside the pattern, alternations kept.
 */
function mapMatcher(claudeEvent: string, event: string, raw: string | undefined, notes: string[]): string | null | false {
  const pattern = raw?.trim() ?? '';
  if (pattern === '' || pattern === '*' || pattern === '.*') return null;
  const matched = CLAUDE_MATCHED_FIELD[claudeEvent];
  if (matched) return matcherOnFixedValues(claudeEvent, pattern, matched, notes);
  if (!TOOL_EVENTS.has(event)) {
    notes.push(`matcher '${pattern}' dropped: hookgate honours matchers on tool events only, so it fires on every ${event}`);
    return null;
  }
  if (SIMPLE_ALTERNATION.test(pattern)) {
    const names = pattern.split('|');
    const mapped = [...new Set(names.flatMap((name) => (CLAUDE_TOOL_TO_HOOKGATE[name] ? [CLAUDE_TOOL_TO_HOOKGATE[name]] : [])))];
    const unknown = names.filter((name) => !CLAUDE_TOOL_TO_HOOKGATE[name]);
    if (mapped.length === 0) {
      notes.push(`matcher '${pattern}' names no tool hookgate has (it has ${HOOKGATE_TOOLS.join(', ')})`);
      return false;
    }
    if (unknown.length > 0) notes.push(`dropped from the matcher: ${unknown.join(', ')} (no such hookgate tool)`);
    return mapped.join('|');
  }
  const rewritten = pattern.replace(/\b(MultiEdit|Bash|Read|Write|Edit|Task)\b/g, (name) => CLAUDE_TOOL_TO_HOOKGATE[name]!);
  const compiled = compileMatcher(rewritten, pattern, notes);
  if (!compiled) return false;
  if (!HOOKGATE_TOOLS.some((tool) => compiled.test(tool))) {
    notes.push(`matcher '${pattern}' matches none of hookgate's tools (${HOOKGATE_TOOLS.join(', ')})`);
    return false;
  }
  if (rewritten !== pattern) notes.push(`matcher rewritten to '${rewritten}'`);
  return rewritten;
}

/** `$CLAUDE_PROJECT_DIR` → the project directory; shell syntax → `sh -c '…'`. */
function convertCommand(raw: string, projectDir: string, notes: string[]): string {
  const command = raw.trim().replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR\b/g, projectDir);
  if (command !== raw.trim()) notes.push(`$CLAUDE_PROJECT_DIR replaced by ${projectDir}`);
  if (!SHELL_SYNTAX.test(command)) return requoted(command);
  notes.push('runs through sh -c (the command uses shell syntax, and hookgate runs commands without a shell)');
  return `sh -c '${command.replace(/'/g, `'\\''`)}'`;
}

/**
 * The same words, quoted only where needed (`python3 "/p"/x.py` → `python3 /p/x.py`): the
 * command is also the consent key, so it should read as the operator would write it.
 */
function requoted(command: string): string {
  let words: string[];
  try {
    words = splitShellWords(command);
  } catch {
    return command; // hookgate reports an unparseable command when it runs; keep it as written
  }
  if (words.length === 0) return command;
  return words.map((word) => (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Claude Code's timeout is in seconds, as hookgate's; hookgate allows 1..300. */
function convertTimeout(seconds: number, notes: string[]): number {
  const whole = Math.trunc(seconds);
  if (whole < 1) {
    notes.push(`timeout ${seconds}s raised to 1s`);
    return 1;
  }
  if (whole > MAX_TIMEOUT_SECONDS) {
    notes.push(`timeout ${seconds}s clamped to ${MAX_TIMEOUT_SECONDS}s`);
    return MAX_TIMEOUT_SECONDS;
  }
  return whole;
}

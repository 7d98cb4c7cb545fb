import { HOOK_NAMES, VALID_HOOK_NAMES_TEXT, isHookName } from '../../catalogue.ts';
import type { HookLogger } from '../../hook-logger.ts';
import { isPlainObject } from '../../python-truthiness.ts';
import { suggestHookName } from './did-you-mean.ts';
import { pythonTypeName } from './python-type-name.ts';
import type { ShellHookEntry } from './shell-hook-entry.ts';
import { MATCH_ALL, compileToolMatcher } from './tool-matcher.ts';

export const DEFAULT_TIMEOUT_SECONDS = 60;
export const MAX_TIMEOUT_SECONDS = 300;

/** The one key of `hooks:` that is a setting, not an event (§5.8). */
export const HOOKS_SETTINGS_KEY = 'env_passthrough';
/** The keys of `hooks:` that are settings, not events (§5.8, §5.10). */
export const HOOKS_SETTINGS_KEYS: ReadonlySet<string> = new Set([HOOKS_SETTINGS_KEY, 'http_allow_private']);

/** Events whose entries may carry a matcher (§3.3). */
const MATCHER_EVENTS = new Set(['pre_tool_call', 'post_tool_call']);

/**
 * Parses the `hooks:` block of a config mapping into validated entries (hook-semantics §3.2,
 * §5.1, §5.4). Never throws: every problem is a warning plus a skip or a repair. Disabled
 * entries are returned too (`enabled: false`), for `list`/`test`/`doctor` to show.
 *
 * @example
 * parseShellHooks({ hooks: { pre_tool_call: [{ command: '~/guard.sh', matcher: 'terminal' }] } }, logger)
 * // [{ event: 'pre_tool_call', command: '~/guard.sh', matcher: 'terminal', timeout: 60, … }]
 */
export function parseShellHooks(config: unknown, logger: HookLogger): ShellHookEntry[] {
  if (!isPlainObject(config)) return [];
  const hooks = config.hooks;
  if (!isPlainObject(hooks)) return [];
  const entries: ShellHookEntry[] = [];
  for (const [event, value] of Object.entries(hooks)) {
    if (HOOKS_SETTINGS_KEYS.has(event)) continue; // not an event: a setting (hook-environment.ts, http/http-hook-settings.ts)
    if (!isHookName(event)) {
      const suggestion = suggestHookName(event, HOOK_NAMES);
      logger.warn(
        suggestion
          ? `unknown shell hook event '${event}' in hooks: config — did you mean '${suggestion}'? Skipping it.`
          : `unknown shell hook event '${event}' in hooks: config; skipping it. Valid events: ${VALID_HOOK_NAMES_TEXT}`,
      );
      continue;
    }
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value)) {
      logger.warn(`hooks.${event} must be a list of hook definitions (got ${pythonTypeName(value)}); skipping it`);
      continue;
    }
    value.forEach((raw, index) => {
      const entry = parseEntry(event, index, raw, logger);
      if (entry) entries.push(entry);
    });
  }
  return entries;
}

function parseEntry(event: string, index: number, raw: unknown, logger: HookLogger): ShellHookEntry | undefined {
  const where = `hooks.${event}[${index}]`;
  if (!isPlainObject(raw)) {
    logger.warn(`${where} must be a mapping with a 'command' key (got ${pythonTypeName(raw)}); skipping it`);
    return undefined;
  }
  const typed = parseType(where, raw, logger);
  if (typed === undefined) return undefined;
  const command = typed.command;

  let matcherRaw: string | null = null;
  if (raw.matcher !== undefined && raw.matcher !== null) {
    if (typeof raw.matcher !== 'string') {
      logger.warn(`${where}.matcher must be a string regex; ignoring it (got ${pythonTypeName(raw.matcher)})`);
    } else if (!MATCHER_EVENTS.has(event)) {
      logger.warn(
        // The value as written (§3.2: the raw matcher value), quoted as `hooks list` quotes a matcher.
        `${where}.matcher='${raw.matcher}' will be ignored at runtime — the matcher field is ` +
          `only honored for pre_tool_call / post_tool_call. The hook will fire on every ${event} event.`,
      );
    } else {
      matcherRaw = raw.matcher;
    }
  }

  const timeout = Object.hasOwn(raw, 'timeout') ? convertTimeout(where, raw.timeout, logger) : DEFAULT_TIMEOUT_SECONDS;
  const enabled = parseEnabled(where, raw, logger);
  const failClosed = parseFailClosed(where, event, raw, logger);
  const payload = parsePayload(where, raw, logger);
  const claudeEvent =
    payload === 'claude' && typeof raw.claude_event === 'string' && raw.claude_event.trim() !== ''
      ? raw.claude_event.trim()
      : undefined;

  const trimmed = matcherRaw?.trim() ?? '';
  const matcher = trimmed === '' ? null : trimmed;
  const { command: _identity, ...typeFields } = typed;
  return {
    event,
    command: command.trim(),
    ...typeFields,
    matcher,
    timeout,
    enabled,
    failClosed,
    ...(payload === 'claude' ? { payload } : {}),
    ...(claudeEvent ? { claudeEvent } : {}),
    matches: matcher === null ? MATCH_ALL : compileToolMatcher(matcher, logger),
  };
}

type TypedFields = Pick<ShellHookEntry, 'command' | 'type' | 'headers' | 'prompt' | 'model'>;

/**
 * The type-specific keys (§5.10): no `type` (or `command`) needs `command`; `http` needs an
 * absolute http(s) `url` and takes `headers` (string values); `prompt` needs `prompt` and takes
 * `model`. Anything else warns and skips the entry.
 */
function parseType(where: string, raw: Record<string, unknown>, logger: HookLogger): TypedFields | undefined {
  const type = raw.type ?? 'command';
  if (type === 'command') {
    const command = raw.command;
    if (typeof command !== 'string' || command.trim() === '') {
      logger.warn(`${where} is missing a non-empty 'command' field; skipping it`);
      return undefined;
    }
    return { command };
  }
  if (type === 'http') {
    const url = typeof raw.url === 'string' ? raw.url.trim() : '';
    let parsed: URL | undefined;
    try {
      parsed = url === '' ? undefined : new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
      logger.warn(`${where} (type: http) needs a 'url' with https:// (http:// for a loopback or private address); skipping it`);
      return undefined;
    }
    const headers: Record<string, string> = {};
    if (raw.headers !== undefined && raw.headers !== null) {
      if (!isPlainObject(raw.headers)) logger.warn(`${where}.headers must be a mapping of header names to strings; ignoring it`);
      else {
        for (const [name, value] of Object.entries(raw.headers)) {
          if (typeof value === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) headers[name] = value;
          else logger.warn(`${where}.headers.${name} must be a string under a valid header name; ignoring it`);
        }
      }
    }
    return { command: url, type: 'http', ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  }
  if (type === 'prompt') {
    const prompt = raw.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      logger.warn(`${where} (type: prompt) is missing a non-empty 'prompt' field; skipping it`);
      return undefined;
    }
    const model = typeof raw.model === 'string' && raw.model.trim() !== '' ? raw.model.trim() : undefined;
    if (raw.model !== undefined && raw.model !== null && model === undefined)
      logger.warn(`${where}.model must be a model name; using the deployment's model`);
    return { command: promptIdentity(prompt), type: 'prompt', prompt: prompt.trim(), ...(model ? { model } : {}) };
  }
  logger.warn(`${where}.type must be 'command', 'http' or 'prompt' (got ${JSON.stringify(type)}); skipping it`);
  return undefined;
}

/** A prompt hook's identity (its callback name, its line in `hooks list`): `prompt: <text>`. */
export function promptIdentity(prompt: string): string {
  return `prompt: ${prompt.trim()}`;
}

/** §3.2 timeout conversion: integer-ish → int, then below 1 → default, above 300 → clamped. */
function convertTimeout(where: string, raw: unknown, logger: HookLogger): number {
  const value = timeoutAsInteger(raw);
  if (value === undefined) {
    logger.warn(
      `${where}.timeout must be an int (got ${pythonTypeName(raw)} ${rawText(raw)}); ` +
        `using the default ${DEFAULT_TIMEOUT_SECONDS}s`,
    );
    return DEFAULT_TIMEOUT_SECONDS;
  }
  if (value < 1) {
    logger.warn(`${where}.timeout must be >= 1 (got ${value}); using the default ${DEFAULT_TIMEOUT_SECONDS}s`);
    return DEFAULT_TIMEOUT_SECONDS;
  }
  if (value > MAX_TIMEOUT_SECONDS) {
    logger.warn(
      `${where}.timeout=${value}s exceeds the maximum of ${MAX_TIMEOUT_SECONDS}s; clamping it to ${MAX_TIMEOUT_SECONDS}s`,
    );
    return MAX_TIMEOUT_SECONDS;
  }
  return value;
}

/** The raw value as the warning shows it: YAML's `.inf` and `.nan` as Python prints them (JSON has no such numbers). */
function rawText(raw: unknown): string {
  if (typeof raw === 'number' && !Number.isFinite(raw)) return Number.isNaN(raw) ? 'nan' : raw > 0 ? 'inf' : '-inf';
  return JSON.stringify(raw) ?? String(raw);
}

function timeoutAsInteger(raw: unknown): number | undefined {
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.trunc(raw) || 0 : undefined;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (!/^[+-]?\d+(?:_\d+)*$/.test(text)) return undefined;
    return Number.parseInt(text.replace(/_/g, ''), 10);
  }
  return undefined;
}

/** §5.4: only the boolean `false` disables; anything else non-boolean warns and stays enabled. */
function parseEnabled(where: string, raw: Record<string, unknown>, logger: HookLogger): boolean {
  if (!Object.hasOwn(raw, 'enabled')) return true;
  if (typeof raw.enabled === 'boolean') return raw.enabled;
  logger.warn(`${where}.enabled must be a boolean (got ${pythonTypeName(raw.enabled)}); the hook stays enabled`);
  return true;
}

/** §5.1: `fail_closed` (alias `failClosed`, the snake_case spelling wins), `true` on pre_tool_call only. */
function parseFailClosed(where: string, event: string, raw: Record<string, unknown>, logger: HookLogger): boolean {
  const key = Object.hasOwn(raw, 'fail_closed') ? 'fail_closed' : Object.hasOwn(raw, 'failClosed') ? 'failClosed' : undefined;
  if (key === undefined) return false;
  const value = raw[key];
  if (event !== 'pre_tool_call') {
    logger.warn(`${where}.${key} is only honoured for pre_tool_call; ignoring it on ${event}`);
    return false;
  }
  if (typeof value !== 'boolean') {
    logger.warn(`${where}.${key} must be a boolean (got ${pythonTypeName(value)}); ignoring it`);
    return false;
  }
  return value;
}

/** `payload: claude | hermes` (architecture §4 "Interfaces added"); anything else warns and keeps Hermes's payload. */
function parsePayload(where: string, raw: Record<string, unknown>, logger: HookLogger): 'claude' | 'hermes' {
  if (raw.payload === undefined || raw.payload === null || raw.payload === 'hermes') return 'hermes';
  if (raw.payload === 'claude') return 'claude';
  logger.warn(`${where}.payload must be 'claude' or 'hermes' (got ${JSON.stringify(raw.payload)}); using the Hermes payload`);
  return 'hermes';
}

/** The idempotence key of an entry (§3.4): event, normalised matcher, trimmed command. */
export function registrationKey(entry: Pick<ShellHookEntry, 'event' | 'matcher' | 'command'>): string {
  return JSON.stringify([entry.event, entry.matcher, entry.command]);
}

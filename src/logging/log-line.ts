import { redactSecrets } from '../secrets/redact-secrets.ts';
import { escapeControlCharacters, escapeControlsKeepingLines } from './escape-control-characters.ts';
import { currentLogContext } from './log-context.ts';

/** How log lines look: `text` (readable, for a person at a terminal) or `json` (one object per line). */
export type LogStyle = 'text' | 'json';

/**
 * `json` in Lambda (CloudWatch reads objects), when `HOOKGATE_LOG_FORMAT=json`, and whenever
 * the stream is not a terminal (files, pipes, test harnesses); `text` on a terminal or with
 * `HOOKGATE_LOG_FORMAT=text`.
 *
 * @example
 * logStyleFor(process.stderr); // 'text' in a terminal, 'json' in a pipe
 */
export function logStyleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): LogStyle {
  const chosen = (env.HOOKGATE_LOG_FORMAT ?? '').trim().toLowerCase();
  if (chosen === 'json' || chosen === 'text') return chosen;
  if (env.AWS_LAMBDA_FUNCTION_NAME) return 'json';
  return stream.isTTY ? 'text' : 'json';
}

/** Colour only on a terminal, never with NO_COLOR. */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

/** The level names every line uses (Powertools' names). */
export type LogLevelName = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const COLOUR: Record<LogLevelName, number> = { DEBUG: 90, INFO: 36, WARN: 33, ERROR: 31 };
/** The delivery, chat and turn go first, under short names, in this order. */
const CONTEXT_KEYS = [
  ['turn_id', 'turn'],
  ['chat_id', 'chat'],
  ['delivery_id', 'delivery'],
] as const;

export interface LogEntry {
  level: LogLevelName;
  message: string;
  service: string;
  /** Extra fields (error, platform, …); the log context's ids are added to them. */
  attributes?: Record<string, unknown>;
  time?: Date;
}

/**
 * One log line (no newline) in the given style, secrets redacted. Every line written while a
 * delivery or a turn runs carries its `turn_id`, `chat_id` and `delivery_id` (the async log
 * context). The message text is kept as it is: quoted fragments tests look for (`[hooks] …`)
 * appear verbatim in it. In `text` style, control and bidirectional characters (ANSI escapes,
 * newlines, U+202E) are escaped in every field (`chat=c1\n…`), and a message's later lines are
 * indented: a chat id or a user's text cannot forge a line or recolour the terminal.
 *
 * @example
 * formatLogLine({ level: 'WARN', message: 'hook failed', service: 'hookgate' }, 'text', false);
 * // "12:00:01.123 WARN  hook failed"
 */
export function formatLogLine(entry: LogEntry, style: LogStyle, colour: boolean): string {
  const time = entry.time ?? new Date();
  const fields: Record<string, unknown> = { ...currentLogContext(), ...entry.attributes };
  if (style === 'json') {
    const line = { level: entry.level, message: entry.message, timestamp: time.toISOString(), service: entry.service, ...fields };
    return JSON.stringify(line, (_key, value) =>
      typeof value === 'string' ? redactSecrets(value) : value instanceof Error ? errorFields(value) : value,
    );
  }
  const level = entry.level.padEnd(5);
  const parts = [
    `${time.toISOString().slice(11, 23)} ${colour ? `\x1b[${COLOUR[entry.level]}m${level}\x1b[0m` : level} ${escapeControlsKeepingLines(redactSecrets(entry.message))}`,
  ];
  const extra: string[] = [];
  for (const [key, short] of CONTEXT_KEYS)
    if (typeof fields[key] === 'string') extra.push(`${short}=${escapeControlCharacters(fields[key])}`);
  for (const [key, value] of Object.entries(fields)) {
    if (CONTEXT_KEYS.some(([k]) => k === key) || value === undefined) continue;
    const text = redactSecrets(
      typeof value === 'string' ? value : JSON.stringify(value instanceof Error ? errorFields(value) : value),
    );
    extra.push(`${escapeControlCharacters(key)}=${escapeControlCharacters(text)}`);
  }
  if (extra.length > 0) parts.push(colour ? `\x1b[2m${extra.join(' ')}\x1b[0m` : extra.join(' '));
  return parts.join('  ');
}

function errorFields(error: Error): Record<string, unknown> {
  return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
}

/**
 * A printer of messages that are always shown, whatever HOOKGATE_LOG_LEVEL says (the gateway
 * hooks' `[hooks] …` lines, hook-semantics §0.5: to standard output), in the log format of the
 * stream: the message text verbatim inside it.
 *
 * @example
 * const print = createLinePrinter('hookgate-dev');
 * print("[hooks] Loaded hook 'log' for events: ['agent:start']");
 */
export function createLinePrinter(
  service: string,
  stream: NodeJS.WriteStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): (message: string) => void {
  const style = logStyleFor(stream, env);
  const colour = style === 'text' && colourFor(stream, env);
  return (message) => void stream.write(`${formatLogLine({ level: 'INFO', message, service }, style, colour)}\n`);
}

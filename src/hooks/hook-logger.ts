import { redactSecrets } from '../secrets/redact-secrets.ts';

/**
 * The engine's logger (hook-semantics §0.5): levels only, no transport opinions. The
 * default writes one line per message to stderr; the gateway passes a structured logger.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface HookLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const LABEL: Record<LogLevel, string> = { debug: 'DEBUG', info: 'INFO', warn: 'WARNING', error: 'ERROR' };

function levelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const raw = (env.HOOKGATE_LOG_LEVEL ?? '').trim().toLowerCase();
  return raw === 'debug' || raw === 'info' || raw === 'warn' || raw === 'error' ? raw : 'info';
}

/** Writes `hookgate WARNING: …` lines to a stream (stderr by default) at or above `level`, secrets redacted. */
export function createStderrLogger(
  level: LogLevel = levelFromEnv(process.env),
  write: (line: string) => void = (line) => process.stderr.write(line),
): HookLogger {
  const at = (msgLevel: LogLevel) => (message: string) => {
    if (RANK[msgLevel] >= RANK[level]) write(`hookgate ${LABEL[msgLevel]}: ${redactSecrets(message)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A logger that keeps every line, for tests of the exact messages. */
export function createMemoryLogger(): HookLogger & { lines: { level: LogLevel; message: string }[] } {
  const lines: { level: LogLevel; message: string }[] = [];
  const at = (level: LogLevel) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

import { colourFor, formatLogLine, logStyleFor, type LogLevelName, type LogStyle } from '../logging/log-line.ts';
import { parseLogThreshold, type LogThreshold } from '../logging/log-threshold.ts';

/**
 * The engine's logger (hook-semantics §0.5): levels only, no transport opinions. The
 * default writes one line per message to stderr in hookgate's one log format; the gateway
 * passes its structured logger.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface HookLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const RANK: Record<LogThreshold, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 50 };
const LABEL: Record<LogLevel, LogLevelName> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

/** The deployment config's reading of HOOKGATE_LOG_LEVEL (`warning`, `silent` included); `info` when unset or unknown. */
const levelFromEnv = (env: NodeJS.ProcessEnv): LogThreshold => parseLogThreshold(env.HOOKGATE_LOG_LEVEL) ?? 'info';

/**
 * Writes one line per message at or above `level` to a stream (stderr by default), in
 * hookgate's log format (`logging/log-line.ts`: readable with colour on a terminal, JSON
 * otherwise; the delivery, chat and turn ids of the async context on every line; secrets
 * redacted).
 */
export function createStderrLogger(
  level: LogThreshold = levelFromEnv(process.env),
  write: (line: string) => void = (line) => process.stderr.write(line),
  style: LogStyle = logStyleFor(process.stderr),
): HookLogger {
  const colour = style === 'text' && colourFor(process.stderr);
  const at = (msgLevel: LogLevel) => (message: string) => {
    if (RANK[msgLevel] >= RANK[level])
      write(`${formatLogLine({ level: LABEL[msgLevel], message, service: 'hookgate' }, style, colour)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A logger that keeps every line, for tests of the exact messages. */
export function createMemoryLogger(): HookLogger & { lines: { level: LogLevel; message: string }[] } {
  const lines: { level: LogLevel; message: string }[] = [];
  const at = (level: LogLevel) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

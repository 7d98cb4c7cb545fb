import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItem } from '@aws-lambda-powertools/logger';
import { redactSecrets } from '../secrets/redact-secrets.ts';
import { ContextLogFormatter } from './context-log-formatter.ts';
import { colourFor, formatLogLine, logStyleFor, type LogLevelName } from './log-line.ts';
import type { LogThreshold } from './log-threshold.ts';

/** A logger's threshold (the deployment config's `logLevel`). */
export type LoggerLevel = LogThreshold;
const POWERTOOLS_LEVEL = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' } as const;
/** Fields a readable line leaves out: shown in its own way, or only of use in CloudWatch. */
const BASE_FIELDS = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'cold_start', 'xray_trace_id']);

/**
 * The same Logger, printing readable lines (`12:00:01.123 INFO  message  turn=… chat=… key=value`,
 * the level in colour) instead of JSON: for a person at a terminal. Levels, attributes and the
 * log context are Powertools' and the formatter's as in JSON; only the printing differs.
 */
class ReadableLogger extends Logger {
  readonly #colour: boolean;

  constructor(options: ConstructorParameters<typeof Logger>[0], colour: boolean) {
    super(options);
    this.#colour = colour;
  }

  protected override printLog(logLevel: number, log: LogItem): void {
    const { level, message, timestamp, service, ...rest } = log.getAttributes();
    const attributes = Object.fromEntries(
      Object.entries(rest).filter(([key, value]) => value !== undefined && !BASE_FIELDS.has(key)),
    );
    const line = formatLogLine(
      {
        level: String(level) as LogLevelName,
        message: String(message ?? ''),
        service: String(service),
        attributes,
        time: new Date(String(timestamp)),
      },
      'text',
      this.#colour,
    );
    // As Powertools' console does: warnings and errors to stderr, the rest to stdout.
    (logLevel >= 16 ? process.stderr : process.stdout).write(`${line}\n`);
  }
}

/**
 * hookgate's structured logger (Powertools): one line per entry, JSON in Lambda and whenever
 * stdout is not a terminal, readable with colour on a terminal (`HOOKGATE_LOG_FORMAT=json|text`
 * forces either). Every line written while a delivery or turn runs carries `turn_id`, `chat_id`
 * and `delivery_id`. The level is the deployment config's (`HOOKGATE_LOG_LEVEL`, parsed once).
 * Every string in a line (message, attributes, error messages and stacks) is redacted (`redactSecrets`).
 *
 * @example
 * const logger = createHookgateLogger('hookgate-gateway', config.logLevel);
 * logger.warn('reply failed', { platform: 'telegram' });
 */
export function createHookgateLogger(
  serviceName: string,
  level: LoggerLevel = 'info',
  env: NodeJS.ProcessEnv = process.env,
): Logger {
  const options = {
    serviceName,
    logLevel: POWERTOOLS_LEVEL[level],
    logFormatter: new ContextLogFormatter(),
    jsonReplacerFn: (_key: string, value: unknown) => (typeof value === 'string' ? redactSecrets(value) : value),
  };
  return logStyleFor(process.stdout, env) === 'text'
    ? new ReadableLogger(options, colourFor(process.stdout, env))
    : new Logger(options);
}

import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { currentLogContext } from './log-context.ts';

/**
 * Powertools' standard JSON line (level, message, timestamp, service, the Lambda context's
 * fields) plus the async log context's `turn_id`, `chat_id` and `delivery_id`. Read per line,
 * not with `appendKeys` (which is per logger instance and would mix up concurrent turns).
 *
 * @example
 * new Logger({ serviceName: 'hookgate-turn', logFormatter: new ContextLogFormatter() });
 */
export class ContextLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    const base = {
      level: attributes.logLevel,
      message: attributes.message,
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
      cold_start: attributes.lambdaContext?.coldStart,
      function_arn: attributes.lambdaContext?.invokedFunctionArn,
      function_memory_size: attributes.lambdaContext?.memoryLimitInMB,
      function_name: attributes.lambdaContext?.functionName,
      function_request_id: attributes.lambdaContext?.awsRequestId,
      // Only when debug sampling is on (POWERTOOLS_LOGGER_SAMPLE_RATE): a 0 on every line says nothing.
      sampling_rate: attributes.sampleRateValue || undefined,
      xray_trace_id: attributes.xRayTraceId,
    };
    return new LogItem({ attributes: base }).addAttributes({ ...currentLogContext(), ...additionalLogAttributes });
  }
}

import { logExcerpt } from '../../secrets/log-excerpt.ts';
import { ChatCompletionSchema, type ChatCompletion, type ChatRequest } from './chat-wire.ts';
import { ModelRequestError } from './model-errors.ts';
import type { ModelTransport } from './model-transport.ts';
import { errorText } from '../../errors/error-text.ts';

export interface OpenAiTransportOptions {
  model: string;
  /** `{baseUrl}/chat/completions` is called. */
  baseUrl: string;
  apiKey?: string;
  /** Per-attempt timeout. Default 60 s. */
  timeoutMs?: number;
}

/**
 * Any OpenAI-compatible `/chat/completions` endpoint with tool calling. The response body
 * is validated; 429 and 5xx are retryable, other 4xx are not.
 *
 * @example
 * const transport = new OpenAiTransport({ model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey });
 */
export class OpenAiTransport implements ModelTransport {
  readonly provider = 'openai-compatible';
  readonly apiMode = 'chat_completions' as const;
  readonly model: string;
  readonly baseUrl: string;

  constructor(private readonly options: OpenAiTransportOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async send(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(request),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new ModelRequestError(`model request failed: ${errorText(error)}`, {
        statusCode: null,
        retryable: true,
        reason: 'transport_error',
        type: (error as Error).name || 'Error',
      });
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const status = response.status;
      const retryable = status === 429 || status >= 500;
      // The upstream body is cut, redacted and escaped: it reaches logs, hooks and observer events.
      throw new ModelRequestError(`model endpoint answered ${status}: ${logExcerpt(text, 300)}`, {
        statusCode: status,
        retryable,
        reason: status === 429 ? 'rate_limited' : status >= 500 ? 'server_error' : 'client_error',
        type: 'HTTPError',
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalid(response.status, 'the response is not JSON');
    }
    const parsed = ChatCompletionSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(response.status, `the response is not a chat completion (${issue?.path.join('.')}: ${issue?.message})`);
    }
    return parsed.data;
  }
}

function invalid(status: number, message: string): ModelRequestError {
  return new ModelRequestError(message, {
    statusCode: status,
    retryable: true,
    reason: 'invalid_response',
    type: 'InvalidResponse',
  });
}

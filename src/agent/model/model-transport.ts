import type { ChatCompletion, ChatRequest } from './chat-wire.ts';

/**
 * One model endpoint: sends a single request attempt. Retries and the api-request hooks
 * live in `callModel`, so both the HTTP provider and the stand-in model get them.
 */
export interface ModelTransport {
  /** The model name sent in requests and reported to hooks. */
  readonly model: string;
  /** e.g. `openai-compatible` or `hookgate-local`. */
  readonly provider: string;
  readonly baseUrl: string;
  readonly apiMode: 'chat_completions';
  /** Throws `ModelRequestError` for a failed attempt. */
  send(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion>;
}

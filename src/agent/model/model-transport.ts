import type { ChatCompletion, ChatRequest } from './chat-wire.ts';

/**
 * What the turn knows about a request beyond its wire body. A real provider ignores it; the
 * local stand-in uses it to tell the user's words from the context hooks appended (§1.9).
 */
export interface ModelCallHints {
  /** The current turn's user message as the user wrote it, before pre_llm_call context. */
  userMessage?: string;
}

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
  send(request: ChatRequest, signal?: AbortSignal, hints?: ModelCallHints): Promise<ChatCompletion>;
}

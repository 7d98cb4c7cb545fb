import type { TranscriptMessage } from '../../store/transcript-store.ts';
import type { TurnHooks } from '../turn/turn-hooks.ts';
import type { AssistantMessage, ChatCompletion, ChatRequest, ToolSpec, WireMessage } from './chat-wire.ts';
import { withoutInlineImages } from '../attachments/user-content.ts';
import { ModelRequestError, ModelUnavailableError } from './model-errors.ts';
import type { ModelTransport } from './model-transport.ts';
import type { OperationFields } from '../trace/turn-spans.ts';
import { errorText } from '../../errors/error-text.ts';

/** What the api-request hooks report about the turn making the request (§1.11). */
export interface ModelCallTurn {
  task_id: string;
  turn_id: string;
  session_id: string;
  user_message: string;
  platform: string;
  /** The stored conversation (no injected context), for `conversation_history`. */
  history: readonly TranscriptMessage[];
}

export interface RetryPolicy {
  /** Retries after the first attempt. Default 3. */
  maxRetries: number;
  /** First backoff; doubles per retry. Default 500 ms. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface ModelCall {
  transport: ModelTransport;
  hooks: TurnHooks;
  turn: ModelCallTurn;
  /** 1 for the first request of the turn (retries share it). */
  apiCallCount: number;
  messages: WireMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}

/**
 * One model request with retries and backoff on 429/5xx/transport/invalid responses,
 * firing `pre_api_request` before every attempt, `post_api_request` after a success and
 * `api_request_error` after every failed attempt (each gated by `hasHook`, §1.11).
 *
 * @example
 * const message = await callModel({ transport, hooks, turn, apiCallCount: 1, messages, tools });
 */
export async function callModel(call: ModelCall): Promise<{ message: AssistantMessage; finishReason: string | null }> {
  const { transport, hooks, turn } = call;
  const retry = call.retry ?? DEFAULT_RETRY_POLICY;
  const apiRequestId = `${turn.turn_id}:api:${call.apiCallCount}`;
  const request: ChatRequest = {
    model: transport.model,
    messages: call.messages,
    ...(call.tools.length > 0 ? { tools: call.tools } : {}),
    ...(call.maxTokens !== undefined ? { max_tokens: call.maxTokens } : {}),
  };
  const common = () => ({
    task_id: turn.task_id,
    turn_id: turn.turn_id,
    api_request_id: apiRequestId,
    session_id: turn.session_id,
  });
  const endpoint = () => ({
    platform: turn.platform,
    model: transport.model,
    provider: transport.provider,
    base_url: transport.baseUrl,
    api_mode: transport.apiMode,
    api_call_count: call.apiCallCount,
  });
  // Hooks see inline images as a short marker, not their megabytes of base64.
  const requestView = () => ({
    method: 'POST',
    url: `${transport.baseUrl}/chat/completions`,
    body: { ...request, messages: withoutInlineImages(request.messages) },
  });

  for (let attempt = 0; ; attempt++) {
    // One `chat` operation per attempt, its hooks under it (docs/telemetry.md).
    const result = await hooks.spans.within(
      'chat',
      { model: transport.model, provider: transport.provider, api_request_id: apiRequestId, attempt },
      (set) => attemptOnce(attempt, set),
    );
    if ('message' in result) return result;
    if (!result.willRetry)
      throw new ModelUnavailableError(`the model request ${apiRequestId} failed: ${result.failure.message}`, {
        cause: result.failure,
      });
    await sleep(Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt));
  }

  type Attempt = { message: AssistantMessage; finishReason: string | null } | { failure: ModelRequestError; willRetry: boolean };
  async function attemptOnce(attempt: number, set: (more: Partial<OperationFields<'chat'>>) => void): Promise<Attempt> {
    const startedAt = Date.now() / 1000;
    await hooks.observe(
      'pre_api_request',
      () => {
        const chars = JSON.stringify(request.messages).length;
        return {
          ...common(),
          user_message: turn.user_message,
          conversation_history: [...turn.history],
          ...endpoint(),
          request_messages: withoutInlineImages(request.messages),
          message_count: request.messages.length,
          tool_count: call.tools.length,
          approx_input_tokens: Math.ceil(chars / 4),
          request_char_count: chars,
          max_tokens: call.maxTokens ?? null,
          started_at: startedAt,
          middleware_trace: [],
          request: requestView(),
        };
      },
      { gated: true },
    );
    try {
      const completion = await transport.send(request, call.signal, { userMessage: turn.user_message });
      const message = usableMessage(completion);
      const endedAt = Date.now() / 1000;
      const choice = completion.choices[0]!;
      await hooks.observe(
        'post_api_request',
        () => ({
          ...common(),
          ...endpoint(),
          api_duration: endedAt - startedAt,
          started_at: startedAt,
          ended_at: endedAt,
          finish_reason: choice.finish_reason ?? null,
          message_count: request.messages.length,
          response_model: completion.model ?? transport.model,
          response: {
            id: completion.id ?? null,
            model: completion.model ?? null,
            choices: [{ index: 0, message, finish_reason: choice.finish_reason ?? null }],
            usage: completion.usage ?? null,
          },
          usage: completion.usage ?? null,
          assistant_message: message,
          assistant_content_chars: message.content?.length ?? 0,
          assistant_tool_call_count: message.tool_calls?.length ?? 0,
        }),
        { gated: true },
      );
      set({
        finish_reason: choice.finish_reason ?? 'unknown',
        ...(completion.model ? { response_model: completion.model } : {}),
        ...(completion.id ? { response_id: completion.id } : {}),
        ...tokenCounts(completion.usage),
        ...(hooks.spans.captureContent && message.content ? { output_text: message.content } : {}),
      });
      return { message, finishReason: choice.finish_reason ?? null };
    } catch (error) {
      const failure =
        error instanceof ModelRequestError
          ? error
          : new ModelRequestError(errorText(error), {
              statusCode: null,
              retryable: false,
              reason: 'unknown_error',
              type: (error as Error)?.name ?? 'Error',
            });
      const endedAt = Date.now() / 1000;
      const willRetry = failure.details.retryable && attempt < retry.maxRetries && !call.signal?.aborted;
      await hooks.observe(
        'api_request_error',
        () => ({
          ...common(),
          ...endpoint(),
          api_duration: endedAt - startedAt,
          started_at: startedAt,
          ended_at: endedAt,
          status_code: failure.details.statusCode,
          retry_count: attempt,
          max_retries: retry.maxRetries,
          retryable: failure.details.retryable,
          reason: failure.details.reason,
          error: { type: failure.details.type, message: failure.message },
          request: requestView(),
        }),
        { gated: true },
      );
      set({ error: failure.message.slice(0, 2000), status_code: failure.details.statusCode });
      return { failure, willRetry };
    }
  }
}

/** OpenAI-style `usage` counts, where the provider reported them. */
function tokenCounts(usage: Record<string, unknown> | undefined): { input_tokens?: number; output_tokens?: number } {
  const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);
  const input = count(usage?.prompt_tokens);
  const output = count(usage?.completion_tokens);
  return { ...(input !== undefined ? { input_tokens: input } : {}), ...(output !== undefined ? { output_tokens: output } : {}) };
}

/** An empty answer (no text, no tool calls) is an invalid response, retried like a 5xx. */
function usableMessage(completion: ChatCompletion): AssistantMessage {
  const message = completion.choices[0]!.message;
  const toolCalls = message.tool_calls?.length ? message.tool_calls : undefined;
  if (!toolCalls && (message.content === null || message.content === '')) {
    throw new ModelRequestError('the model answered with neither text nor tool calls', {
      statusCode: 200,
      retryable: true,
      reason: 'invalid_response',
      type: 'EmptyResponse',
    });
  }
  return { role: 'assistant', content: message.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

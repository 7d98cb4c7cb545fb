/**
 * The synthetic kwargs of `hookgate hooks test` and `doctor` (hook-semantics §4.2), in order.
 * They do not pass through `invoke`, so they carry no `telemetry_schema_version`.
 */
const API_BASE = {
  session_id: 'test-session',
  task_id: 'test-task',
  platform: 'cli',
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  base_url: 'https://api.anthropic.com',
  api_mode: 'anthropic_messages',
  api_call_count: 1,
};

const DEFAULT_PAYLOADS: Record<string, () => Record<string, unknown>> = {
  pre_tool_call: () => ({
    tool_name: 'terminal',
    args: { command: 'echo hello' },
    session_id: 'test-session',
    task_id: 'test-task',
    tool_call_id: 'test-call',
  }),
  post_tool_call: () => ({
    tool_name: 'terminal',
    args: { command: 'echo hello' },
    session_id: 'test-session',
    task_id: 'test-task',
    tool_call_id: 'test-call',
    result: '{"output": "hello"}',
    duration_ms: 42,
  }),
  pre_llm_call: () => ({
    session_id: 'test-session',
    user_message: 'What is the weather?',
    conversation_history: [],
    is_first_turn: true,
    model: 'gpt-4',
    platform: 'cli',
  }),
  post_llm_call: () => ({ session_id: 'test-session', model: 'gpt-4', platform: 'cli' }),
  on_session_start: () => ({ session_id: 'test-session' }),
  on_session_end: () => ({ session_id: 'test-session' }),
  on_session_finalize: () => ({ session_id: 'test-session' }),
  on_session_reset: () => ({ session_id: 'test-session' }),
  pre_api_request: () => ({
    ...API_BASE,
    message_count: 4,
    tool_count: 12,
    approx_input_tokens: 2048,
    request_char_count: 8192,
    max_tokens: 4096,
  }),
  post_api_request: () => ({
    ...API_BASE,
    api_duration: 1.234,
    finish_reason: 'stop',
    message_count: 4,
    response_model: 'claude-sonnet-4-6',
    usage: { input_tokens: 2048, output_tokens: 512 },
    assistant_content_chars: 1200,
    assistant_tool_call_count: 0,
  }),
  subagent_stop: () => ({
    parent_session_id: 'parent-sess',
    child_role: null,
    child_summary: 'Synthetic summary for hooks test',
    child_status: 'completed',
    duration_ms: 1234,
  }),
};

/** `test`'s payload: the event's default, else `{session_id: "test-session"}`. */
export function testPayload(event: string): Record<string, unknown> {
  return DEFAULT_PAYLOADS[event]?.() ?? { session_id: 'test-session' };
}

/** `doctor`'s payload: the event's default, else `{"extra": {}}` (§4.4). */
export function doctorPayload(event: string): Record<string, unknown> {
  return DEFAULT_PAYLOADS[event]?.() ?? { extra: {} };
}

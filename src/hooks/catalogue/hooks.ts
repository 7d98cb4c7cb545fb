import * as z from '../../validation/zod.ts';
import { blockMessage } from '../aggregate/block-message.ts';
import { firstNonEmptyString } from '../aggregate/first-non-empty-string.ts';
import { firstString } from '../aggregate/first-string.ts';
import { gatewayDispatchAction } from '../aggregate/gateway-dispatch-action.ts';
import { joinLlmContext } from '../aggregate/llm-context.ts';
import { promptBlockMessage } from '../aggregate/prompt-block.ts';
import { rewrittenArgs } from '../tool-call-rewrite.ts';
import { countedResults, decisionHook, internalHook, observerHook, type DecisionTrace } from './hook-definition.ts';

// Field types shared by several hooks. What is present must have the right type; every key
// is optional and unknown keys pass (kwargsSchema), as callbacks must tolerate both (§0.2).
const idString = z.string();
const nullableString = z.nullable(z.string());
const list = z.array(z.unknown());
const count = z.int();
const seconds = z.number();

/** The ids of one model request, in the order §1.10–§1.11 list them first. */
const modelRequestIds = { task_id: idString, turn_id: idString, api_request_id: idString, session_id: idString };
/** The model and provider of one request, in the order §1.10–§1.11 list them. */
const modelRequestFields = {
  platform: z.string(),
  model: z.string(),
  provider: z.string(),
  base_url: z.string(),
  api_mode: z.string(),
  api_call_count: count,
};
const approvalFields = {
  command: z.string(),
  description: z.string(),
  pattern_key: z.nullable(z.string()),
  pattern_keys: z.array(z.string()),
  session_key: z.string(),
  surface: z.string(),
};

/** A finished tool call, in the order §1.6 (post_tool_call) and §1.7 (transform_tool_result) list it. */
const toolCallOutcomeFields = {
  tool_name: z.string(),
  args: z.unknown(),
  result: z.string(),
  task_id: idString,
  session_id: idString,
  tool_call_id: idString,
  turn_id: idString,
  api_request_id: idString,
  duration_ms: count.check(z.gte(0)),
  status: z.string(),
  error_type: nullableString,
  error_message: nullableString,
};

/** A transform hook's trace: the call site either took a replacement or kept its text. */
const replacementTrace = (content: (results: readonly unknown[]) => string | undefined): DecisionTrace => ({
  describe: (results) => (content(results) === undefined ? 'unchanged' : 'replaced'),
  content,
  changed: 'transform changed',
});

/**
 * The 19 plugin hooks of the Hermes contract (hook-semantics §0.6, §1.4–§1.15), each defined
 * once: its kind, its kwargs schema (keys in contract order), and for a decision hook its
 * aggregation rule and how traces describe its decision. Everything else about the hooks
 * (HOOK_KINDS, KWARGS_KEY_ORDER, the `/v1` answers, trace words, the `HookName` type) is
 * derived from this table; adding a hook is adding an entry here.
 *
 * @example
 * HOOKS.pre_tool_call.answer([{ action: 'block', message: 'no' }]) // { action: 'block', message: 'no' }
 */
export const HOOKS = {
  pre_tool_call: decisionHook(
    {
      tool_name: z.string(),
      /** Anything that is not a plain object becomes `{}` at the call site (§1.5). */
      args: z.unknown(),
      task_id: idString,
      session_id: idString,
      tool_call_id: idString,
      turn_id: idString,
      api_request_id: idString,
      middleware_trace: list,
    },
    {
      answer: (results): { action: 'allow' } | { action: 'block'; message: string } => {
        const message = blockMessage(results);
        return message === undefined ? { action: 'allow' } : { action: 'block', message };
      },
      trace: {
        describe(results) {
          const message = blockMessage(results);
          if (message !== undefined) return `block: ${message}`;
          return rewrittenArgs(results) === undefined ? 'allow' : 'rewrite';
        },
        // A rewrite decides what the tool runs (§5.10): its arguments are part of the decision `hookgate replay` compares.
        content: (results) => {
          const message = blockMessage(results);
          if (message !== undefined) return message;
          const args = rewrittenArgs(results);
          return args === undefined ? undefined : `rewrite ${JSON.stringify(args)}`;
        },
        changed: 'decision changed',
      },
    },
  ),
  post_tool_call: observerHook({ ...toolCallOutcomeFields, middleware_trace: list }),
  transform_tool_result: decisionHook(toolCallOutcomeFields, {
    answer: (results): { result?: string } => {
      const result = firstString(results);
      return result === undefined ? {} : { result };
    },
    trace: replacementTrace(firstString),
  }),
  transform_terminal_output: decisionHook(
    { command: z.string(), output: z.string(), returncode: count, task_id: idString, env_type: z.string() },
    {
      answer: (results): { output?: string } => {
        const output = firstString(results);
        return output === undefined ? {} : { output };
      },
      trace: replacementTrace(firstString),
    },
  ),
  transform_llm_output: decisionHook(
    { response_text: z.string(), session_id: idString, model: z.string(), platform: z.string() },
    {
      answer: (results): { response_text?: string } => {
        const text = firstNonEmptyString(results);
        return text === undefined ? {} : { response_text: text };
      },
      trace: replacementTrace(firstNonEmptyString),
    },
  ),
  pre_llm_call: decisionHook(
    {
      session_id: idString,
      task_id: idString,
      turn_id: idString,
      user_message: z.string(),
      conversation_history: list,
      is_first_turn: z.boolean(),
      model: z.string(),
      platform: z.string(),
      sender_id: z.string(),
    },
    {
      answer: (results): { context?: string } => {
        const context = joinLlmContext(results);
        return context === undefined ? {} : { context };
      },
      trace: {
        // A prompt block (`block_turn`, Claude Code's UserPromptSubmit block) ends the turn before the
        // model: that is the call's decision, whatever context came with it.
        describe(results) {
          const blocked = promptBlockMessage(results);
          if (blocked !== undefined) return `block: ${blocked}`;
          const context = joinLlmContext(results);
          return context === undefined ? 'no context' : `context (${context.length} chars)`;
        },
        content: (results) => promptBlockMessage(results) ?? joinLlmContext(results),
        changed: 'context changed',
      },
    },
  ),
  post_llm_call: observerHook({
    session_id: idString,
    task_id: idString,
    turn_id: idString,
    user_message: z.string(),
    assistant_response: z.string(),
    conversation_history: list,
    model: z.string(),
    platform: z.string(),
  }),
  pre_api_request: observerHook({
    ...modelRequestIds,
    user_message: z.unknown(),
    conversation_history: list,
    ...modelRequestFields,
    request_messages: list,
    message_count: count,
    tool_count: count,
    approx_input_tokens: count,
    request_char_count: count,
    max_tokens: z.nullable(count),
    started_at: seconds,
    middleware_trace: list,
    request: z.unknown(),
  }),
  post_api_request: observerHook({
    ...modelRequestIds,
    ...modelRequestFields,
    api_duration: seconds,
    started_at: seconds,
    ended_at: seconds,
    finish_reason: z.nullable(z.string()),
    message_count: count,
    response_model: z.nullable(z.string()),
    response: z.unknown(),
    usage: z.unknown(),
    assistant_message: z.unknown(),
    assistant_content_chars: count,
    assistant_tool_call_count: count,
  }),
  api_request_error: observerHook({
    ...modelRequestIds,
    ...modelRequestFields,
    api_duration: seconds,
    started_at: seconds,
    ended_at: seconds,
    status_code: z.nullable(z.number()),
    retry_count: count,
    max_retries: count,
    retryable: z.nullable(z.boolean()),
    reason: z.string(),
    error: z.unknown(),
    request: z.unknown(),
  }),
  on_session_start: observerHook({ session_id: idString, model: z.string(), platform: z.string() }),
  on_session_end: observerHook({
    session_id: idString,
    task_id: idString,
    turn_id: idString,
    completed: z.boolean(),
    interrupted: z.boolean(),
    model: z.string(),
    platform: z.string(),
  }),
  on_session_finalize: observerHook({
    session_id: nullableString,
    platform: z.string(),
    reason: z.string(),
    old_session_id: nullableString,
    new_session_id: nullableString,
  }),
  on_session_reset: observerHook({
    session_id: nullableString,
    platform: z.string(),
    reason: z.string(),
    old_session_id: nullableString,
    new_session_id: nullableString,
  }),
  subagent_start: observerHook({
    parent_session_id: nullableString,
    parent_turn_id: idString,
    parent_subagent_id: nullableString,
    child_session_id: nullableString,
    child_subagent_id: z.string(),
    child_role: nullableString,
    child_goal: z.string(),
  }),
  subagent_stop: observerHook({
    parent_session_id: nullableString,
    parent_turn_id: idString,
    child_session_id: nullableString,
    child_role: nullableString,
    child_summary: nullableString,
    child_status: z.string(),
    duration_ms: count.check(z.gte(0)),
  }),
  pre_gateway_dispatch: decisionHook(
    { event: z.unknown(), gateway: z.unknown(), session_store: z.unknown() },
    // Decided by the gateway before any turn, so no turn trace records it: counted only.
    { answer: gatewayDispatchAction, trace: countedResults },
  ),
  pre_approval_request: observerHook(approvalFields),
  post_approval_response: observerHook({ ...approvalFields, choice: z.string() }),
};

/**
 * Hooks hookgate calls that are not among the 19 plugin hooks: their callbacks are
 * registered by hookgate itself, never by a plugin or a `hooks:` entry by that name.
 * `permission_request` carries the `claude_event: PermissionRequest` entries of
 * `pre_approval_request` (claude-event-gate.ts); its call site reads the raw results.
 */
export const INTERNAL_HOOKS = {
  permission_request: internalHook({ ...approvalFields, session_id: idString }),
};

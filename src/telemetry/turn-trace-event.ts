import * as z from 'zod';

/**
 * The observer event a turn publishes once per handler invocation, after its reply: the timed
 * operations of that invocation (model calls, tool calls, hook calls, subagents), each with its
 * parent, so the observer side can draw the turn as an OpenTelemetry trace (docs/telemetry.md).
 * The hook events themselves cannot carry this: `pre_api_request`, `post_tool_call` and their
 * kin are not emitted when no hook listens (hook-semantics §1.3), and none of them says when a
 * tool call or a hook call started and ended.
 *
 * A gateway-style name (`<prefix>:<name>`): no telemetry tag is added, and it runs a gateway
 * hook only if one subscribes to `hookgate:turn_trace` (or `hookgate:*`).
 */
export const TURN_TRACE_EVENT = 'hookgate:turn_trace';

const Common = {
  /** Unique inside one invocation (`op1`, `op2`, …). */
  id: z.string().min(1).max(40),
  /** The operation this one ran inside; null = the invocation's root (the turn). */
  parent: z.string().min(1).max(40).nullable(),
  started_at: z.iso.datetime({ offset: true }),
  duration_ms: z.number().nonnegative(),
  error: z.string().max(2000).optional().describe('Present when the operation failed.'),
};

export const ModelCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('chat'),
  model: z.string(),
  provider: z.string(),
  api_request_id: z.string(),
  attempt: z.number().int().nonnegative(),
  response_model: z.string().optional(),
  response_id: z.string().optional(),
  finish_reason: z.string().optional(),
  input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().optional(),
  status_code: z.number().int().nullable().optional(),
  output_text: z.string().optional().describe('The answer text; only with telemetry.capture_content.'),
});

export const ToolCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('execute_tool'),
  tool_name: z.string(),
  tool_call_id: z.string(),
  /** How the call ended: `ran`, `blocked`, `needs_approval`, `denied`, … */
  outcome: z.string().optional(),
  arguments: z.string().optional().describe('The raw arguments; only with telemetry.capture_content.'),
  result: z.string().optional().describe('The result text; only with telemetry.capture_content.'),
});

export const SubagentOperationSchema = z.object({
  ...Common,
  kind: z.literal('invoke_agent'),
  subagent_id: z.string(),
  child_session_id: z.string(),
  status: z.string().optional(),
});

export const HookCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('hook'),
  hook: z.string(),
  /** `plugin`, `shell`, `gateway`, or `-` when nobody ran inline. */
  source: z.string(),
  callback: z.string(),
  decision: z.string().max(2000),
});

export const TurnOperationSchema = z.discriminatedUnion('kind', [
  ModelCallOperationSchema,
  ToolCallOperationSchema,
  SubagentOperationSchema,
  HookCallOperationSchema,
]);
export type TurnOperation = z.infer<typeof TurnOperationSchema>;

export const TurnTracePayloadSchema = z
  .object({
    turn_id: z.string().min(1),
    session_id: z.string(),
    platform: z.string(),
    chat_id: z.string().optional(),
    model: z.string(),
    provider: z.string(),
    /** A resumed invocation (after an approval) of a turn that started earlier. */
    resumed: z.boolean(),
    started_at: z.iso.datetime({ offset: true }),
    duration_ms: z.number().nonnegative(),
    /** completed, interrupted, exhausted, failed, suspended, … */
    outcome: z.string(),
    /** Replies the platform never took in this invocation. */
    undelivered_replies: z.number().int().nonnegative(),
    input_text: z.string().optional().describe('The user message; only with telemetry.capture_content.'),
    output_text: z.string().optional().describe('The reply; only with telemetry.capture_content.'),
    operations: z.array(TurnOperationSchema),
  })
  .meta({ title: `payload of ${TURN_TRACE_EVENT}` });
export type TurnTracePayload = z.infer<typeof TurnTracePayloadSchema>;

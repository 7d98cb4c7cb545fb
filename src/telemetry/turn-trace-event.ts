import * as z from '../validation/zod.ts';

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
  id: z.string().check(z.minLength(1), z.maxLength(40)),
  /** The operation this one ran inside; null = the invocation's root (the turn). */
  parent: z.nullable(z.string().check(z.minLength(1), z.maxLength(40))),
  started_at: z.iso.datetime({ offset: true }),
  duration_ms: z.number().check(z.nonnegative()),
  error: z.optional(z.string().check(z.maxLength(2000))).check(z.describe('Present when the operation failed.')),
};

export const ModelCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('chat'),
  model: z.string(),
  provider: z.string(),
  api_request_id: z.string(),
  attempt: z.int().check(z.nonnegative()),
  response_model: z.optional(z.string()),
  response_id: z.optional(z.string()),
  finish_reason: z.optional(z.string()),
  input_tokens: z.optional(z.int().check(z.nonnegative())),
  output_tokens: z.optional(z.int().check(z.nonnegative())),
  status_code: z.optional(z.nullable(z.int())),
  output_text: z.optional(z.string()).check(z.describe('The answer text; only with telemetry.capture_content.')),
});

export const ToolCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('execute_tool'),
  tool_name: z.string(),
  tool_call_id: z.string(),
  /** How the call ended: `done` (the tool ran), `blocked` (a hook or the tool set refused it), `needs_approval`. */
  outcome: z.optional(z.string()),
  arguments: z.optional(z.string()).check(z.describe('The raw arguments; only with telemetry.capture_content.')),
  result: z.optional(z.string()).check(z.describe('The result text; only with telemetry.capture_content.')),
});

export const SubagentOperationSchema = z.object({
  ...Common,
  kind: z.literal('invoke_agent'),
  subagent_id: z.string(),
  child_session_id: z.string(),
  status: z.optional(z.string()),
});

export const HookCallOperationSchema = z.object({
  ...Common,
  kind: z.literal('hook'),
  hook: z.string(),
  /** `plugin`, `shell`, `gateway`, or `-` when nobody ran inline. */
  source: z.string(),
  callback: z.string(),
  decision: z.string().check(z.maxLength(2000)),
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
    turn_id: z.string().check(z.minLength(1)),
    session_id: z.string(),
    platform: z.string(),
    chat_id: z.optional(z.string()),
    model: z.string(),
    provider: z.string(),
    /** A resumed invocation (after an approval) of a turn that started earlier. */
    resumed: z.boolean(),
    started_at: z.iso.datetime({ offset: true }),
    duration_ms: z.number().check(z.nonnegative()),
    /** completed, interrupted, exhausted, failed, suspended, … */
    outcome: z.string(),
    /** Replies the platform never took in this invocation. */
    undelivered_replies: z.int().check(z.nonnegative()),
    input_text: z.optional(z.string()).check(z.describe('The user message; only with telemetry.capture_content.')),
    output_text: z.optional(z.string()).check(z.describe('The reply; only with telemetry.capture_content.')),
    operations: z.array(TurnOperationSchema),
  })
  .check(z.meta({ title: `payload of ${TURN_TRACE_EVENT}` }));
export type TurnTracePayload = z.infer<typeof TurnTracePayloadSchema>;

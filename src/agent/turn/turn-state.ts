import * as z from '../../validation/zod.ts';
import { ReplyTargetSchema } from '../../messaging/message-event.ts';
import { StoredAttachmentSchema } from '../../store/stored-attachment.ts';

const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const MessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.nullable(z.string()),
  tool_calls: z.optional(z.array(ToolCallSchema)),
  tool_call_id: z.optional(z.string()),
  name: z.optional(z.string()),
  attachments: z.optional(z.array(StoredAttachmentSchema)),
});

/**
 * Everything a turn needs to go on in another handler invocation (it is persisted with a
 * pending approval and validated when the turn resumes). The stored conversation before
 * the turn is not in here; it is reloaded from the transcript store.
 */
export const TurnStateSchema = z.object({
  v: z.literal(1),
  turn_id: z.string(),
  task_id: z.string(),
  session_id: z.string(),
  session_key: z.string(),
  platform: z.string(),
  user_id: z.nullable(z.string()),
  /** The chat the message came from (the source's, which `always` grants are scoped to). */
  chat_id: z.optional(z.string()),
  model: z.string(),
  reply: ReplyTargetSchema,
  /** ISO-8601; /stop requests at or after it interrupt this turn. */
  started_at: z.string(),
  user_message: z.string(),
  /** pre_llm_call's joined context: fired once, applied to every request of the turn. */
  injected_context: z.nullable(z.string()),
  /** This turn's messages so far, as stored (the user message without injection). */
  messages: z.array(MessageSchema),
  iteration: z.int(),
  api_call_count: z.int(),
  /** The tool calls of the current iteration not yet done; index 0 is next. */
  pending_calls: z.array(ToolCallSchema),
  /** Names and results of the current iteration's finished tool calls (for agent:step). */
  step_tools: z.array(z.object({ name: z.string(), result: z.string() })),
  /** The `agent:start` context as emitted (agent:end is built from it). */
  agent_start: z.record(z.string(), z.unknown()),
});
export type TurnState = z.infer<typeof TurnStateSchema>;

import * as z from '../../validation/zod.ts';
import type { TranscriptMessage } from '../../store/transcript-store.ts';

/**
 * The OpenAI `/chat/completions` wire format, as far as hookgate uses it. Responses from
 * any provider are validated with these schemas before the loop reads them.
 */
export const ToolCallSchema = z.object({
  id: z.string(),
  type: z._default(z.literal('function'), 'function'),
  function: z.object({ name: z.string(), arguments: z._default(z.string(), '{}') }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z._default(z.nullable(z.string()), null),
  tool_calls: z.optional(z.array(ToolCallSchema)),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ChatCompletionSchema = z.object({
  id: z.optional(z.string()),
  model: z.optional(z.string()),
  choices: z
    .array(
      z.object({
        index: z.optional(z.number()),
        message: AssistantMessageSchema,
        finish_reason: z.optional(z.nullable(z.string())),
      }),
    )
    .check(z.minLength(1)),
  usage: z.optional(z.record(z.string(), z.unknown())),
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

/** One tool as the model is told about it. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One part of a multimodal user message (OpenAI `content` array). */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A message as it goes on the wire: a user message's content may be parts (text and images). */
export type WireMessage = Omit<TranscriptMessage, 'content' | 'attachments'> & { content: string | ContentPart[] | null };

/** The request body sent to `{base}/chat/completions`. */
export interface ChatRequest {
  model: string;
  messages: WireMessage[];
  tools?: ToolSpec[];
  max_tokens?: number;
}

import * as z from 'zod';
import type { TranscriptMessage } from '../../store/transcript-store.ts';

/**
 * The OpenAI `/chat/completions` wire format, as far as hookgate uses it. Responses from
 * any provider are validated with these schemas before the loop reads them.
 */
export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string(), arguments: z.string().default('{}') }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable().default(null),
  tool_calls: z.array(ToolCallSchema).optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ChatCompletionSchema = z.object({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        index: z.number().optional(),
        message: AssistantMessageSchema,
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.record(z.string(), z.unknown()).optional(),
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

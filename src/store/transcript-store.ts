/** One message in OpenAI chat-completions form, as the model sees it. */
export interface TranscriptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/**
 * Messages of a session, stored so that long conversations never hit DynamoDB's 400 KB
 * item limit (one item per message or chunk, never one item per session).
 */
export interface TranscriptStore {
  /** The whole transcript, oldest first. */
  load(sessionId: string): Promise<TranscriptMessage[]>;
  /**
   * The newest messages, oldest first: reads back from the end until it holds `maxMessages`
   * whole messages or `maxChars` of their JSON, so a turn's reads do not grow with the session.
   * May answer a little more than the window; `fitHistoryWindow` cuts it exactly.
   */
  loadRecent(sessionId: string, window: { maxMessages: number; maxChars: number }): Promise<TranscriptMessage[]>;
  append(sessionId: string, messages: readonly TranscriptMessage[]): Promise<void>;
}

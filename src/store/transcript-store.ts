import type { StoredAttachment } from './stored-attachment.ts';

/** One message in OpenAI chat-completions form, as the model sees it. */
export interface TranscriptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  /** A user message's attachments (docs/attachments.md); the model gets them rendered, never this field. */
  attachments?: StoredAttachment[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/** Stored messages with their places in the transcript. */
export interface SequencedMessages {
  readonly messages: TranscriptMessage[];
  /**
   * `seqs[i]` is the sequence number of `messages[i]` in its transcript: ascending, with a gap
   * where a torn message (an append that died half-way) was dropped.
   */
  readonly seqs: number[];
}

/**
 * Where a run of stored messages is in a session's transcript: what a trace record keeps
 * instead of a copy of the stored conversation (`TraceRecord.kwargs_history`). The transcript
 * is append-only, so the range names the same messages for as long as the transcript is kept.
 */
export interface TranscriptRange {
  readonly session_id: string;
  /** Sequence numbers of the first and the last message, inclusive. */
  readonly from_seq: number;
  readonly to_seq: number;
  /** How many messages the range held when it was read (a torn one leaves a gap). */
  readonly count: number;
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
  loadRecent(sessionId: string, window: { maxMessages: number; maxChars: number }): Promise<SequencedMessages>;
  /** The messages with sequence numbers `fromSeq` to `toSeq` (inclusive), oldest first: what a {@link TranscriptRange} names. */
  loadRange(sessionId: string, fromSeq: number, toSeq: number): Promise<SequencedMessages>;
  append(sessionId: string, messages: readonly TranscriptMessage[]): Promise<void>;
}

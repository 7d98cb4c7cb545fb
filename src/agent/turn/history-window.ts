import type { TranscriptMessage } from '../../store/transcript-store.ts';

/** How much of a session's stored conversation a turn sends to the model. */
export interface HistoryWindow {
  /** Stored messages at most (user, assistant and tool messages each count one). */
  readonly maxMessages: number;
  /** Characters of the messages' JSON at most (about 4 per token). */
  readonly maxChars: number;
}

/**
 * The default window: 200 messages or 400,000 characters (~100k tokens), whichever binds
 * first — a long chat keeps its recent turns, and a turn's reads, model input and cost stop
 * growing with the session (docs/turn-runtime.md, "Long sessions").
 */
export const DEFAULT_HISTORY_WINDOW: HistoryWindow = { maxMessages: 200, maxChars: 400_000 };

/**
 * The newest part of `history` that fits `window` and starts at a user message, so the model
 * never sees a tool result without the call that asked for it. Older messages are dropped (not
 * summarised); they stay in the transcript. The history is the turns before this one, each
 * ended; a last turn that alone exceeds the window is dropped whole rather than cut.
 *
 * @example
 * fitHistoryWindow(messages, { maxMessages: 2, maxChars: 1e6 }) // the last user message and what follows it, at most 2
 */
export function fitHistoryWindow(history: readonly TranscriptMessage[], window: HistoryWindow): TranscriptMessage[] {
  let start = history.length;
  let chars = 0;
  while (start > 0) {
    const size = JSON.stringify(history[start - 1]).length;
    if (history.length - start + 1 > window.maxMessages || chars + size > window.maxChars) break;
    chars += size;
    start -= 1;
  }
  while (start < history.length && history[start]!.role !== 'user') start += 1;
  return history.slice(start);
}

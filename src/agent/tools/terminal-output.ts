/**
 * Post-processing of terminal output, in the order hook-semantics §1.8 gives: truncation to
 * the output limit, then ANSI escape stripping, then secret redaction.
 */

/** 50 KB of output reaches the model; the rest is cut from the middle. */
export const TERMINAL_OUTPUT_LIMIT = 50 * 1024;

/**
 * Keeps the head and the tail (errors tend to be at the end) with a marker between.
 *
 * @example
 * truncateOutput('x'.repeat(60_000)).includes('[output truncated:') // true
 */
export function truncateOutput(output: string, limit: number = TERMINAL_OUTPUT_LIMIT): string {
  if (output.length <= limit) return output;
  const head = Math.floor(limit * 0.4);
  const tail = limit - head;
  const omitted = output.length - head - tail;
  return `${output.slice(0, head)}\n\n... [output truncated: ${omitted} characters omitted] ...\n\n${output.slice(output.length - tail)}`;
}

// CSI / OSC / single-character escapes (the `ansi-regex` pattern).
const ANSI = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

// The one redactor (known secret values and their encodings, then common shapes) lives in src/secrets.
export { SECRET_PATTERNS, redactSecrets } from '../../secrets/redact-secrets.ts';
import { redactSecrets } from '../../secrets/redact-secrets.ts';

/** Truncate, strip ANSI, redact — what the terminal tool does to every output. */
export function postProcessTerminalOutput(output: string): string {
  return redactSecrets(stripAnsi(truncateOutput(output)));
}

/**
 * Post-processing of terminal output, in the order hook-semantics §1.8 gives: truncation to
 * the output limit, then ANSI escape stripping, then secret redaction.
 */

/** 50 KB (UTF-8 bytes) of output reaches the model; the rest is cut from the middle. */
export const TERMINAL_OUTPUT_LIMIT = 50 * 1024;

/**
 * Keeps the head and the tail (errors tend to be at the end) with a marker between. The
 * limit is in UTF-8 bytes, so 60 KB of accented or CJK text is cut like 60 KB of ASCII;
 * cuts fall between characters, never inside a surrogate pair.
 *
 * @example
 * truncateOutput('x'.repeat(60_000)).includes('[output truncated:') // true
 */
export function truncateOutput(output: string, limit: number = TERMINAL_OUTPUT_LIMIT): string {
  if (output.length * 3 <= limit || Buffer.byteLength(output, 'utf8') <= limit) return output;
  const headBytes = Math.floor(limit * 0.4);
  const head = prefixWithin(output, headBytes);
  const tail = suffixWithin(output, limit - headBytes);
  const omitted = output.length - head.length - tail.length;
  return `${head}\n\n... [output truncated: ${omitted} characters omitted] ...\n\n${tail}`;
}

/** UTF-8 size of a code point (a lone surrogate is written as U+FFFD: 3 bytes). */
const utf8Size = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);

function prefixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    if (bytes + utf8Size(code) > maxBytes) break;
    bytes += utf8Size(code);
    i += code > 0xffff ? 2 : 1;
  }
  return text.slice(0, i);
}

function suffixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    const low = text.charCodeAt(i - 1);
    const high = i >= 2 ? text.charCodeAt(i - 2) : 0;
    const start = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? i - 2 : i - 1;
    const size = utf8Size(text.codePointAt(start)!);
    if (bytes + size > maxBytes) break;
    bytes += size;
    i = start;
  }
  return text.slice(i);
}

// CSI / OSC / single-character escapes (the `ansi-regex` pattern).
const ANSI =
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

// Control strings the pattern above leaves: DCS, SOS, OSC, PM and APC (`ESC P|X|]|^|_` or their C1 forms) up to their
// terminator, BEL or ST. An APC or a C1 OSC 52 passed on to a terminal can write its clipboard.
const CONTROL_STRINGS = /(?:\u001b[PX\]^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;

/**
 * Escape sequences taken out of a command's output: control strings first, then CSI, OSC and single-character
 * escapes. Defence in depth: whatever shows the text must still escape what is left (`hookgate chat` does).
 *
 * @example
 * stripAnsi('\u001b[31mred\u001b[0m \u001b_Gx\u001b\\ok'); // 'red ok'
 */
export function stripAnsi(text: string): string {
  return text.replace(CONTROL_STRINGS, '').replace(ANSI, '');
}

// The one redactor (known secret values and their encodings, then common shapes) lives in src/secrets.
export { SECRET_PATTERNS, redactSecrets } from '../../secrets/redact-secrets.ts';
import { redactSecrets } from '../../secrets/redact-secrets.ts';

/** Truncate, strip ANSI, redact — what the terminal tool does to every output. */
export function postProcessTerminalOutput(output: string): string {
  return redactSecrets(stripAnsi(truncateOutput(output)));
}

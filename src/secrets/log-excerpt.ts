import { redactSecrets } from './redact-secrets.ts';

/** How much of a foreign text (hook output, an upstream answer) a log line carries by default. */
export const LOG_EXCERPT_LIMIT = 400;

// C0 controls (tab included), DEL, C1 controls, the bidi controls (marks, overrides, isolates) and
// the line/paragraph separators that can make a terminal show a line other than the one written
// (the set of src/logging/escape-control-characters.ts, which this folder may not import).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Text from outside (a hook's stdout/stderr, a platform's error body) made safe for a log
 * line: known secrets and common secret shapes redacted, cut to `limit` characters (with a
 * note of how many were left out), and every control character escaped (`\n`, `\u001b`…),
 * so a log line stays one line and a terminal reading it runs no escape sequence.
 *
 * @example
 * logExcerpt('\u001b[2Jboom\nline 2') // '\\u001b[2Jboom\\nline 2'
 */
export function logExcerpt(text: string, limit: number = LOG_EXCERPT_LIMIT): string {
  // Redacted before it is cut, so a secret cut in half is not left half readable.
  const redacted = redactSecrets(text);
  const cut = redacted.length > limit ? `${redacted.slice(0, limit)}… [${redacted.length - limit} more characters]` : redacted;
  return cut.replace(UNSAFE, escapeChar);
}

function escapeChar(char: string): string {
  switch (char) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
}

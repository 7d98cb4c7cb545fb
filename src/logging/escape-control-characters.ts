/**
 * Characters that change how text around them is shown rather than being shown themselves:
 * C0 controls (newline, carriage return, ESC of ANSI sequences, …), DEL, C1 controls, the
 * Unicode bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) and
 * the line and paragraph separators (U+2028–U+2029). A chat user's text that reaches a
 * prompt or a terminal must not reorder it (`U+202E` shows `rm -rf /` as something else),
 * forge a new line, or move the cursor.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Every control and bidirectional character of `text` written as a visible escape
 * (`\n`, `\r`, `\t`, else `\uXXXX`); everything else, backslashes included, as it is.
 *
 * @example
 * escapeControlCharacters('ok\u202Eexe.txt');   // 'ok\\u202eexe.txt'
 * escapeControlCharacters('c1\n\x1b[31mWARN');  // 'c1\\n\\u001b[31mWARN'
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * As `escapeControlCharacters`, but a newline stays a line break, and every line after the
 * first is indented by `indent`: a log message may span lines (a stack, a hook's stderr), yet
 * no line of it can pass for a log line of its own (or a chat reply for a prompt).
 *
 * @example
 * escapeControlsKeepingLines('a\nb\x1b[2J'); // 'a\n    b\\u001b[2J'
 */
export function escapeControlsKeepingLines(text: string, indent = '    '): string {
  return text
    .split('\n')
    .map((line) => escapeControlCharacters(line))
    .join(`\n${indent}`);
}

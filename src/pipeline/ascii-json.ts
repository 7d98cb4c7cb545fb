/**
 * Every UTF-16 code unit outside printable ASCII. Inside JSON text such units only occur
 * within strings (keys included), where `\uXXXX` is an exact equivalent.
 */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

/**
 * JSON for a queue or topic message body, in printable ASCII only: every other character is
 * written as a `\uXXXX` escape (astral characters as their surrogate pair), so
 * `JSON.parse(asciiJson(v))` gives back exactly what `JSON.parse(JSON.stringify(v))` gives.
 *
 * Why: SQS and SNS accept only `#x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD |
 * #x10000–#x10FFFF` in a message body. Chat text can hold characters outside that set
 * (U+0000–U+001F, U+FFFE, U+FFFF, lone surrogates); JSON.stringify escapes the controls and
 * lone surrogates but writes U+FFFE/U+FFFF raw, and some SQS implementations (the embedded
 * emulator among them) also refuse astral characters. An ASCII body is valid everywhere and
 * no consumer needs to know: it is plain JSON. Size limits are measured on this encoding.
 *
 * @example
 * asciiJson({ text: 'hi 😀\uFFFE' }) // '{"text":"hi \\ud83d\\ude00\\ufffe"}'
 */
export function asciiJson(value: unknown): string {
  return escapeNonAscii(JSON.stringify(value));
}

/** The same escaping for JSON text built by hand (pieces of JSON.stringify output). */
export function escapeNonAscii(json: string): string {
  return json.replace(NOT_PRINTABLE_ASCII, escapeUnit);
}

function escapeUnit(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

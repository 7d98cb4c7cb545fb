/** The characters that reorder the text around them: embeddings, overrides, isolates and the directional marks. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as the console shows it: every bidirectional control character written out as its escape
 * (`\u202e`). A chat's text, a file name or a tool's arguments holding a right-to-left override
 * would otherwise read reversed, with the fields beside it on the line (`invoice‮fdp.exe` shows as
 * `invoiceexe.pdf`); the chat's approval prompt escapes them the same way.
 *
 * @example
 * visibleBidi('invoice\u202efdp.exe') // 'invoice\\u202efdp.exe'
 */
export function visibleBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The one way a thrown value becomes text (log lines, replies, stored records): an Error's
 * message (its name when the message is empty), anything else through `String()` — and a
 * value whose `toString` throws still gives a text.
 *
 * @example
 * errorText(new TypeError('bad input')) // 'bad input'
 * errorText('plain') // 'plain'
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

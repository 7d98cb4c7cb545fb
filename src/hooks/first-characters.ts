/**
 * The first `count` characters of `text`, counted as the reference (Python) counts them: in
 * code points, so an emoji is one character and a surrogate pair is never split.
 *
 * @example
 * firstCharacters('😀😀😀', 2) // '😀😀'
 */
export function firstCharacters(text: string, count: number): string {
  // A string is never fewer UTF-16 units than code points: short ones need no walk.
  if (text.length <= count) return text;
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken++) {
    const unit = text.charCodeAt(end);
    end += unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * `text` cut to at most `max` characters (code points): a longer one keeps its first `max - 3`
 * and ends in `...` (hook-semantics §4.2).
 *
 * @example
 * clipCharacters('abcdef', 5) // 'ab...'
 */
export function clipCharacters(text: string, max: number): string {
  const head = firstCharacters(text, max);
  return head.length === text.length ? text : `${firstCharacters(head, max - 3)}...`;
}

/**
 * Compares strings by Unicode code point, the order the spec uses for directory names and
 * valid-name lists (JavaScript's default sort compares UTF-16 units, which differs for
 * characters outside the BMP).
 *
 * @example
 * ['b', 'a', '\u{1F600}', '\uFFFF'].sort(compareCodePoints); // ['a', 'b', '\uFFFF', '\u{1F600}']
 */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i += 1) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** The first `count` Unicode code points of `text` (§2.4 "characters"). */
export function firstCodePoints(text: string, count: number): string {
  let out = '';
  let taken = 0;
  for (const char of text) {
    if (taken++ >= count) break;
    out += char;
  }
  return out;
}

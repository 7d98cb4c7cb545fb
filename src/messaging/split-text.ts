/**
 * Cuts a reply into pieces a platform accepts (Telegram 4096, Discord 2000 characters…),
 * preferring line breaks, never splitting a surrogate pair. An empty text is one empty piece.
 *
 * @example
 * splitText('a\nb', 2); // ['a', 'b']
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut <= 0) cut = max;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(rest[cut] === '\n' ? cut + 1 : cut);
  }
  pieces.push(rest);
  return pieces;
}

/** Characters a POSIX shell reads literally outside quotes. */
const SAFE_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/**
 * One word for a POSIX shell, so a command hookgate prints (dev's banner, `hookgate init`,
 * `hooks list`) runs as printed: as-is when every character is literal, else single-quoted
 * (a `'` inside becomes `'\''`, the only character single quotes cannot hold).
 *
 * @example
 * shellWord('/h/a.sh');          // '/h/a.sh'
 * shellWord("/tmp/it's here");   // "'/tmp/it'\\''s here'"
 */
export function shellWord(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

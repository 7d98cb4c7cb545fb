import { knownSecretValues } from './secret-variables.ts';

/**
 * The one redactor of hookgate (hook-semantics §5.8): every text that leaves the process —
 * replies, transcripts, traces, observer events, logs, tool results — goes through it.
 * Two layers:
 * 1. Known secrets: the values of the secret variables and of the deployment secret
 *    (`secret-variables.ts`), and their base64 (standard and URL alphabets, at each of the
 *    three byte alignments, so `echo $TOKEN | base64` is caught whatever surrounds it), hex
 *    (either case) and JSON-escaped forms. Matching ignores whitespace and the JSON escapes
 *    `\n` `\r` `\t`, so line-wrapped base64 (`base64` wraps at 76), `xxd -p`, `od -t x1` and a
 *    JSON-encoded copy of any of them are caught too.
 * 2. Unknown secrets: common shapes (`SECRET_PATTERNS`).
 */

/** What a secret becomes. */
export const REDACTED = '***';

/** Values shorter than this are not redacted: too short to be a credential, too likely to be ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Common secret shapes and what replaces them. Each key names the shape in docs and
 * tests; the bearer rule keeps the word so the output still reads.
 */
export const SECRET_PATTERNS: readonly { key: string; pattern: RegExp; replacement: string }[] = [
  { key: 'openai_key', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replacement: REDACTED },
  { key: 'aws_access_key_id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replacement: REDACTED },
  { key: 'github_token', pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: REDACTED },
  { key: 'github_fine_grained_token', pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replacement: REDACTED },
  { key: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: REDACTED },
  // `/bot<id>:<secret>/` in Telegram API URLs as well as the bare token.
  { key: 'telegram_bot_token', pattern: /(?:(?<=bot)|\b)\d{6,12}:[A-Za-z0-9_-]{30,}/g, replacement: REDACTED },
  { key: 'bearer_token', pattern: /\b([Bb]earer)\s+[A-Za-z0-9._~+/=-]{8,}/g, replacement: `$1 ${REDACTED}` },
];

/**
 * Redacts every known secret (and its encodings), then every common secret shape.
 *
 * @example
 * // with HOOKGATE_API_TOKEN=tok-0123456789 in the environment
 * redactSecrets('token tok-0123456789, b64 dG9rLTAxMjM0NTY3ODkK') // 'token ***, b64 ***kK'
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return redactPatterns(redactKnownSecrets(text, knownNeedles(env)));
}

/**
 * `redactSecrets` applied to every string (and key) inside plain objects and arrays; other
 * values (and a cyclic reference) are returned as they are. For records about to be stored or
 * published.
 *
 * @example
 * redactSecretsDeep({ result: '{"output": "tok-0123456789"}' }) // { result: '{"output": "***"}' }
 */
export function redactSecretsDeep<T>(value: T, env: NodeJS.ProcessEnv = process.env): T {
  const needles = knownNeedles(env);
  const ancestors = new Set<object>();
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redactPatterns(redactKnownSecrets(item, needles));
    const plain =
      item !== null && typeof item === 'object' && (Array.isArray(item) || Object.getPrototypeOf(item) === Object.prototype);
    // A cycle is left as it is: whoever serialises the value reports it, as without redaction.
    if (!plain || ancestors.has(item)) return item;
    ancestors.add(item);
    const copy = Array.isArray(item)
      ? item.map(walk)
      : Object.fromEntries(Object.entries(item).map(([key, entry]) => [walk(key) as string, walk(entry)]));
    ancestors.delete(item);
    return copy;
  };
  return walk(value) as T;
}

/**
 * Matches every text that any of `SECRET_PATTERNS` can match (each pattern's fixed part; the
 * Telegram token's digits then `:`), so most texts take one scan instead of seven.
 */
const ANY_SECRET_SHAPE = /sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|\d{6}:|[Bb]earer\s/;

function redactPatterns(text: string): string {
  if (!ANY_SECRET_SHAPE.test(text)) return text;
  let out = text;
  for (const { pattern, replacement } of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

// Characters the matching skips: whitespace, and the two-character JSON escapes of it.
function isSkipped(text: string, index: number): 0 | 1 | 2 {
  const char = text.charCodeAt(index);
  if (char === 0x20 || char === 0x09 || char === 0x0a || char === 0x0d) return 1;
  if (char === 0x5c) {
    const next = text.charCodeAt(index + 1);
    if (next === 0x6e || next === 0x72 || next === 0x74) return 2; // \n \r \t
  }
  return 0;
}

/** The characters `isSkipped` skips, as one pattern (left to right, as it reads them). */
const SKIPPED = /[ \t\n\r]|\\[nrt]/g;
const HAS_SKIPPED = /[ \t\n\r]|\\[nrt]/;

/** `text` without the skipped characters. */
function compactView(text: string): string {
  return text.replace(SKIPPED, '');
}

/** Where each character of `compactView(text)` came from in `text`. */
function compactOrigin(text: string): Int32Array {
  const origin = new Int32Array(text.length);
  let kept = 0;
  for (let index = 0; index < text.length; ) {
    const skip = isSkipped(text, index);
    if (skip > 0) {
      index += skip;
      continue;
    }
    origin[kept++] = index++;
  }
  return origin;
}

function redactKnownSecrets(text: string, needles: readonly string[]): string {
  if (needles.length === 0 || text.length === 0) return text;
  // Most texts hold no secret: search the compacted view first, map positions back only on a hit.
  const view = HAS_SKIPPED.test(text) ? compactView(text) : text;
  const hits: [number, number][] = [];
  for (const needle of needles) {
    for (let at = view.indexOf(needle); at !== -1; at = view.indexOf(needle, at + needle.length)) hits.push([at, needle.length]);
  }
  // The text as it is too: a backslash just before a secret (`\tok-…`, `C:\token`) reads as an
  // escape in the view and takes the secret's first letter with it.
  const direct: [number, number][] = [];
  if (view !== text)
    for (const needle of needles) {
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
        direct.push([at, at + needle.length]);
    }
  if (hits.length === 0 && direct.length === 0) return text;
  const origin = view === text || hits.length === 0 ? undefined : compactOrigin(text);
  const ranges = hits.map(([at, length]): [number, number] =>
    origin ? [origin[at]!, origin[at + length - 1]! + 1] : [at, at + length],
  );
  ranges.push(...direct);
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let cursor = 0;
  let open: [number, number] | undefined;
  for (const range of ranges) {
    if (open && range[0] <= open[1]) {
      open[1] = Math.max(open[1], range[1]);
      continue;
    }
    if (open) {
      out += text.slice(cursor, open[0]) + REDACTED;
      cursor = open[1];
    }
    open = [range[0], range[1]];
  }
  out += text.slice(cursor, open![0]) + REDACTED + text.slice(open![1]);
  return out;
}

let cached: { key: string; needles: string[] } | undefined;

/** The search strings for the secrets known now, longest first (cached while the values stay the same). */
function knownNeedles(env: NodeJS.ProcessEnv): string[] {
  const values = knownSecretValues(env).filter((value) => value.length >= MIN_SECRET_LENGTH);
  const key = values.join('\u0000');
  if (cached?.key === key) return cached.needles;
  const needles = new Set<string>();
  for (const value of values)
    for (const form of encodedForms(value)) {
      const needle = compactView(form);
      if (needle.length >= MIN_SECRET_LENGTH) needles.add(needle);
    }
  cached = { key, needles: [...needles].sort((a, b) => b.length - a.length) };
  return cached.needles;
}

/** The value as it may appear in text: itself, JSON-escaped, hex, and the base64 cores. */
function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [value, JSON.stringify(value).slice(1, -1), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
  for (let offset = 0; offset < 3; offset++) {
    // The characters of base64(prefix + value) that depend on the value's bytes alone.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logExcerpt } from '../../src/secrets/log-excerpt.ts';
import { REDACTED, SECRET_PATTERNS, redactSecrets, redactSecretsDeep } from '../../src/secrets/redact-secrets.ts';
import { knownSecretValues, rememberDeploymentSecret, secretVariableNames } from '../../src/secrets/secret-variables.ts';

const TOKEN = 'tok-Zq8Wm3rT5yU7iO9pA1sD';
const env = { HOOKGATE_API_TOKEN: TOKEN, PATH: '/usr/bin', HOME: '/home/me', AWS_REGION: 'eu-west-1' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('redactSecrets: known secret values (hook-semantics §5.8)', () => {
  it('redacts the value wherever it is, and leaves other values alone', () => {
    expect(redactSecrets(`a ${TOKEN} b${TOKEN}c`, env)).toBe('a *** b***c');
    expect(redactSecrets('/home/me and eu-west-1', env)).toBe('/home/me and eu-west-1');
  });

  it.each([0, 1, 2, 3, 4, 5])('redacts its base64 after %i other bytes, with and without a trailing newline', (offset) => {
    const prefix = 'x'.repeat(offset);
    for (const encoded of [b64(prefix + TOKEN), b64(`${prefix}${TOKEN}\n`), Buffer.from(prefix + TOKEN).toString('base64url')]) {
      const out = redactSecrets(`out: ${encoded}`, env);
      expect(out).toContain('***');
      // Only the prefix's own characters and the few on each edge that mix in neighbouring bytes survive.
      expect(out.replace('out: ', '').replace('***', '').length).toBeLessThanOrEqual(Math.ceil((4 * offset) / 3) + 6);
    }
  });

  it('redacts hex in either case, wrapped base64, od output and JSON-encoded copies', () => {
    const hex = Buffer.from(TOKEN).toString('hex');
    expect(redactSecrets(hex, env)).toBe('***');
    expect(redactSecrets(hex.toUpperCase(), env)).toBe('***');
    const long = `${TOKEN}${'-'.repeat(80)}`;
    const wrapped = b64(long).replace(/(.{76})/g, '$1\n');
    expect(redactSecrets(wrapped, { HOOKGATE_API_TOKEN: long })).not.toMatch(/[A-Za-z0-9+/]{12}/);
    const od = [...Buffer.from(TOKEN)]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join(' ')
      .replace(/((?:\S+ ){16})/g, '$1\n');
    expect(redactSecrets(od, env)).toBe('***');
    expect(redactSecrets(JSON.stringify({ output: `${b64(TOKEN).slice(0, 20)}\n${b64(TOKEN).slice(20)}` }), env)).toBe(
      '{"output":"***"}',
    );
    const quoted = 'pa"ss\\word-123';
    expect(redactSecrets(JSON.stringify({ v: quoted }), { HOOKGATE_API_TOKEN: quoted })).toBe('{"v":"***"}');
  });

  it('redacts the value right after a backslash, where its first letter would read as an escape', () => {
    expect(redactSecrets(`C:\\${TOKEN}\\x and "\\${TOKEN}" and \\\n${TOKEN}`, env)).toBe('C:\\***\\x and "\\***" and \\\n***');
  });

  it('leaves values shorter than 8 characters alone (too short to tell from text)', () => {
    expect(redactSecrets('abc1234 x', { HOOKGATE_API_TOKEN: 'abc1234' })).toBe('abc1234 x');
  });

  it('redacts common secret shapes too, such as a Telegram token in an API URL', () => {
    expect(redactSecrets('POST https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage', {})).toBe(
      'POST https://api.telegram.org/bot***/sendMessage',
    );
    expect(redactSecrets('key sk-proj-abcdefghijklmnop1234', {})).toBe('key ***');
  });

  it('redactSecretsDeep walks plain objects and arrays, keys included', () => {
    expect(redactSecretsDeep({ a: [TOKEN, 1, null, { [TOKEN]: `x ${TOKEN}` }], n: 2 }, env)).toEqual({
      a: ['***', 1, null, { '***': 'x ***' }],
      n: 2,
    });
    const cyclic: Record<string, unknown> = { s: TOKEN };
    cyclic.self = cyclic;
    const copy = redactSecretsDeep(cyclic, env);
    expect(copy.s).toBe('***');
    expect(copy.self).toBe(cyclic); // left for the serialiser to report
    const shared = { s: TOKEN };
    expect(redactSecretsDeep({ a: shared, b: shared }, env)).toEqual({ a: { s: '***' }, b: { s: '***' } });
  });
});

describe('redactSecrets: properties', () => {
  // Text made of pieces that come near the secret shapes and the token, and of what matching skips.
  const piece = fc.constantFrom(
    'sk-',
    'sk-abcdefghijklmnopqrs',
    'AKIA',
    'ASIAABCDEFGHIJKLMNOP',
    'ghp_',
    'ghs_abcdefghijklmnopqrstuvwxyz',
    'github_pat_',
    'xoxb-',
    'xoxp-1234567890-abc',
    'bot',
    '123456',
    '1234567890:',
    'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    'Bearer ',
    'bearer\t',
    'abcdefgh.ijk',
    ' ',
    '\n',
    '\\',
    '\n',
    '\t',
    '"',
    'é',
    '🙂',
  );
  const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 6 })), { maxLength: 30 }).map((parts) => parts.join(''));

  it('the common shapes: exactly what applying each pattern in turn gives', () => {
    fc.assert(
      fc.property(text, (input) => {
        let expected = input;
        for (const { pattern, replacement } of SECRET_PATTERNS) expected = expected.replace(pattern, replacement);
        expect(redactSecrets(input, {})).toBe(expected);
      }),
    );
  });

  it('a known secret, split anywhere by whitespace or JSON escapes, never survives; text without one is left as it was', () => {
    const filler = fc.constantFrom(' ', '\n', '\r', '\t', '\\n', '\\t', '  \n');
    const around = fc
      .array(fc.constantFrom('word', 'x=1', '{"a":', '\\', 'é', ' ', '\n', '\\n'), { maxLength: 8 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(around, around, fc.array(fc.tuple(fc.nat(TOKEN.length), filler), { maxLength: 4 }), (before, after, splits) => {
        // A lone backslash just before the token reads as an escape of its first letter in the
        // compacted view (`\t` of `tok-`): found in the text as it is, so only when it is whole.
        fc.pre(!before.endsWith('\\') || splits.length === 0);
        let token = TOKEN;
        for (const [at, fill] of [...splits].sort((a, b) => b[0] - a[0])) token = token.slice(0, at) + fill + token.slice(at);
        const out = redactSecrets(`${before}${token}${after}`, env);
        expect(out).toContain(REDACTED);
        expect(out.replace(/[ \t\n\r]|\\[nrt]/g, '')).not.toContain(TOKEN);
        expect(redactSecrets(`${before}${after}`, env)).toBe(`${before}${after}`);
      }),
    );
  });
});

describe('secret variables', () => {
  it('the fixed list, plus every key and value of the deployment secret once remembered', () => {
    expect(secretVariableNames()).toEqual(
      expect.arrayContaining(['AWS_SESSION_TOKEN', 'HOOKGATE_API_TOKEN', 'HOOKGATE_MODEL_API_KEY', 'TELEGRAM_BOT_TOKEN']),
    );
    expect(secretVariableNames()).not.toContain('DISCORD_PUBLIC_KEY'); // public (§5.8) unless the deployment secret holds it
    expect(secretVariableNames()).not.toContain('MY_EXTRA_KEY');
    rememberDeploymentSecret({ MY_EXTRA_KEY: 'extra-secret-value-42', DISCORD_PUBLIC_KEY: 'public-key-0123456789', EMPTY: '' });
    expect(secretVariableNames()).toEqual(expect.arrayContaining(['MY_EXTRA_KEY', 'DISCORD_PUBLIC_KEY', 'EMPTY']));
    // The secret's value counts even when the environment holds another value for that key.
    expect(knownSecretValues({ MY_EXTRA_KEY: 'env-override-value-7' })).toEqual(
      expect.arrayContaining(['extra-secret-value-42', 'env-override-value-7']),
    );
    expect(redactSecrets('extra-secret-value-42 env-override-value-7', { MY_EXTRA_KEY: 'env-override-value-7' })).toBe('*** ***');
  });
});

describe('the secrets of process.env', () => {
  it('are read once per synchronous run, and a change is seen after the next microtask', async () => {
    const saved = process.env.HOOKGATE_API_TOKEN;
    delete process.env.HOOKGATE_API_TOKEN;
    try {
      expect(redactSecrets(`x ${TOKEN}`)).toBe(`x ${TOKEN}`);
      process.env.HOOKGATE_API_TOKEN = TOKEN;
      await Promise.resolve(); // any await: a request, a log line of the next step
      expect(redactSecrets(`x ${TOKEN}`)).toBe('x ***');
      expect(knownSecretValues()).toContain(TOKEN);
    } finally {
      if (saved === undefined) delete process.env.HOOKGATE_API_TOKEN;
      else process.env.HOOKGATE_API_TOKEN = saved;
    }
  });
});

describe('logExcerpt', () => {
  it('escapes control characters, redacts, then cuts with a note', () => {
    const saved = process.env.HOOKGATE_API_TOKEN;
    process.env.HOOKGATE_API_TOKEN = TOKEN;
    expect(logExcerpt('\u001b[2Jboom\nline\t2\u0007\u202e', 400)).toBe('\\u001b[2Jboom\\nline\\t2\\u0007\\u202e');
    expect(logExcerpt(`${'a'.repeat(10)}${TOKEN}`, 5)).toBe('aaaaa… [8 more characters]');
    expect(logExcerpt(`${TOKEN}\u0000`)).toBe('***\\u0000');
    if (saved === undefined) delete process.env.HOOKGATE_API_TOKEN;
    else process.env.HOOKGATE_API_TOKEN = saved;
  });
});

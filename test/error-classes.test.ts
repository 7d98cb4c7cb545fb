import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookgateError } from '../src/errors/hookgate-error.ts';
import { ConfigError } from '../src/config/config-error.ts';
import { InvalidSignatureError } from '../src/platforms/webhook-errors.ts';
import { CommandNotFoundError } from '../src/hooks/shell/spawn/shell-errors.ts';
import { errorText } from '../src/errors/error-text.ts';

/** Every `class X extends Y` in src/ and infra/, with its file, from the source text. */
function classesOfSrc(): { name: string; parent: string; abstract: boolean; body: string; file: string }[] {
  const classes = [];
  const entries = ['src', 'infra'].flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }));
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^export (abstract )?class (\w+) extends (\w+) \{(.*?)^\}/gms)) {
      classes.push({ abstract: m[1] !== undefined, name: m[2]!, parent: m[3]!, body: m[4]!, file });
    }
  }
  return classes;
}

describe('error classes', () => {
  const classes = classesOfSrc();
  const parentOf = new Map(classes.map((c) => [c.name, c.parent]));
  const errors = classes.filter((c) => c.name.endsWith('Error') && c.name !== 'HookgateError');

  it('every error class in src/ and infra/ extends HookgateError', () => {
    expect(errors.length).toBeGreaterThan(20);
    const strays = errors.filter((c) => {
      let parent: string | undefined = c.parent;
      while (parent !== undefined && parent !== 'HookgateError') parent = parentOf.get(parent);
      return parent === undefined;
    });
    expect(strays.map((c) => `${c.file}: ${c.name} extends ${c.parent}`)).toEqual([]);
  });

  it('src/ and functions/ throw no bare Error: every failure has a HookgateError class', () => {
    const bare = ['src', 'functions']
      .flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .flatMap((entry) => {
        const file = join(entry.parentPath, entry.name);
        return (
          readFileSync(file, 'utf8')
            .split('\n')
            .map((line, n) => ({ line, at: `${file}:${n + 1}` }))
            // Comments and TSDoc examples may show `new Error(`; code may not.
            .filter(({ line }) => /\bnew Error\(/.test(line) && !/^\s*(\*|\/\/)/.test(line))
        );
      });
    expect(bare.map((b) => b.at)).toEqual([]);
  });

  it('src/ and functions/ turn errors into text only through errorText', () => {
    // The hand-made ways: String(error) adds the name ('Error: '), (error as Error).message gives undefined
    // for a thrown non-Error, and each ternary picks its own fallback.
    const byHand = [
      /\bString\((?:e|err|error|cause|\w+Error)\)/,
      /\bas Error\)\??\.message\b/,
      /\binstanceof \w*Error \? \w+\.message\b/,
    ];
    // Each exception with its reason; a line matches when its file ends with the path and it holds the text.
    const allowed = [
      // The helper itself: its fallback for a thrown non-Error.
      { file: 'src/errors/error-text.ts', text: 'return String(error);' },
      // The console's browser code (its source on main is src/console/browser/console.ts, console-script.ts the
      // served script): it runs in the page, apart from src/'s modules, and is the console's to change.
      { file: 'src/console/console-script.ts', text: 'textContent = String(error)' },
      { file: 'src/console/browser/console.ts', text: 'textContent = String(error)' },
    ];
    const found = ['src', 'functions']
      .flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .flatMap((entry) => {
        const file = join(entry.parentPath, entry.name);
        return (
          readFileSync(file, 'utf8')
            .split('\n')
            .map((line, n) => ({ file, line, at: `${file}:${n + 1}` }))
            // Comments may name the old ways; code may not.
            .filter(({ line }) => byHand.some((pattern) => pattern.test(line)) && !/^\s*(\/?\*|\/\/)/.test(line))
            .filter(({ file, line }) => !allowed.some((a) => file.endsWith(a.file) && line.includes(a.text)))
        );
      });
    expect(found.map((f) => `${f.at}: ${f.line.trim()}`)).toEqual([]);
  });

  it('errorText gives the message without the name, the name for an empty message, and text for any thrown value', () => {
    const config = new ConfigError('HOOKGATE_X', 'is missing');
    expect(errorText(config)).toBe(config.message);
    expect(errorText(config)).not.toMatch(/^ConfigError/);
    expect(errorText(new TypeError('bad input'))).toBe('bad input');
    expect(errorText(new RangeError(''))).toBe('RangeError');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText({ toString: () => 'custom' })).toBe('custom');
    expect(
      errorText({
        toString: () => {
          throw new TypeError('no text');
        },
      }),
    ).toBe('[object Object]');
  });

  it('every concrete one names itself', () => {
    const unnamed = errors.filter(
      (c) => !c.abstract && !new RegExp(`override readonly name(: string)? = '${c.name}';`).test(c.body),
    );
    expect(unnamed.map((c) => `${c.file}: ${c.name}`)).toEqual([]);
  });

  it('keeps name, message, status and instanceof through the base', () => {
    const config = new ConfigError('HOOKGATE_X', 'is missing');
    expect(config).toBeInstanceOf(HookgateError);
    expect(config).toBeInstanceOf(Error);
    expect(config.name).toBe('ConfigError');
    expect(String(config)).toMatch(/^ConfigError: /);
    const webhook = new InvalidSignatureError('bad signature');
    expect(webhook).toBeInstanceOf(HookgateError);
    expect(webhook.status).toBe(401);
    expect(new CommandNotFoundError()).toBeInstanceOf(HookgateError);
  });
});

import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/hooks/code-point-order.ts';
import { resolveHooksHome } from '../../src/hooks/hooks-home.ts';
import { isTruthy } from '../../src/hooks/python-truthiness.ts';
import { withTelemetryTag } from '../../src/hooks/telemetry-tag.ts';
import { withObjectArgs } from '../../src/hooks/tool-call-args.ts';
import fc from 'fast-check';
import { renderWireJson, WireJsonError } from '../../src/hooks/wire-json.ts';
import { clipCharacters, firstCharacters } from '../../src/hooks/first-characters.ts';

describe('Python truthiness (§0.3)', () => {
  class Thing {}
  it.each([
    [null, false],
    [undefined, false],
    [false, false],
    [0, false],
    [-0, false],
    [Number.NaN, false],
    ['', false],
    [[], false],
    [{}, false],
    [Object.create(null), false],
    [true, true],
    [1, true],
    [-1, true],
    [0.1, true],
    ['0', true],
    [' ', true],
    ['false', true],
    [[0], true],
    [{ a: undefined }, true],
    [new Thing(), true],
    [new Map(), true],
    [() => 0, true],
    [Number.POSITIVE_INFINITY, true],
  ])('%o → %s', (value, expected) => {
    expect(isTruthy(value)).toBe(expected);
  });
});

describe('wire JSON (§0.4)', () => {
  const weird = { toString: () => '<weird>' };
  Object.setPrototypeOf(weird, { toString: () => '<weird>' });
  // An array with a hole: its missing item is undefined, so null (map() would skip it).
  const holey: unknown[] = [];
  holey[0] = 1;
  holey[2] = 3;
  it.each([
    [{ a: 1, b: [1, 2], c: {} }, '{"a": 1, "b": [1, 2], "c": {}}'],
    [{ z: 1, a: 2 }, '{"z": 1, "a": 2}'],
    [[], '[]'],
    [{ error: 'Blocked by policy' }, '{"error": "Blocked by policy"}'],
    ['é ✓ 中', '"é ✓ 中"'],
    ['q"b\\', '"q\\"b\\\\"'],
    ['\n\r\t\b\f\u0001\u001f', '"\\n\\r\\t\\b\\f\\u0001\\u001f"'],
    [[true, false, null, undefined], '[true, false, null, null]'],
    [[1.5, 1e21, 0.1, -0, Number.NaN, Number.POSITIVE_INFINITY], '[1.5, 1e+21, 0.1, 0, null, null]'],
    [{ w: weird }, '{"w": "<weird>"}'],
    [[new Date(0).getTime()], '[0]'],
    [[10n], '["10"]'],
    [[new Set([1])], '["[object Set]"]'],
    [{ xs: holey }, '{"xs": [1, null, 3]}'],
  ])('%o → %s', (value, expected) => {
    expect(renderWireJson(value)).toBe(expected);
  });
  it('escapes non-ASCII as \\uXXXX for the hooks-test line', () => {
    expect(renderWireJson({ m: 'é😀' }, { asciiOnly: true })).toBe('{"m": "\\u00e9\\ud83d\\ude00"}');
  });
  it('a cycle is a serialisation failure', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => renderWireJson(cyclic)).toThrow(WireJsonError);
  });
});

describe('small rules', () => {
  it('telemetry tag is appended last, and a supplied one is kept', () => {
    expect(Object.entries(withTelemetryTag({ b: 1, a: 2 }))).toEqual([
      ['b', 1],
      ['a', 2],
      ['telemetry_schema_version', 'hermes.observer.v1'],
    ]);
    expect(withTelemetryTag({ telemetry_schema_version: 'x' })).toEqual({ telemetry_schema_version: 'x' });
  });
  it('telemetry tag: every own key and value kept in order, `__proto__` included, on a plain object', () => {
    const keys = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'args'));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(keys, fc.jsonValue()), { selector: ([key]) => key }), (entries) => {
        // Own data properties as JSON.parse makes them (Object.fromEntries defines, never sets).
        const kwargs = Object.fromEntries(entries.filter(([key]) => key !== 'telemetry_schema_version'));
        const tagged = withTelemetryTag(kwargs);
        expect(Object.getPrototypeOf(tagged)).toBe(Object.prototype);
        expect(Object.entries(tagged)).toEqual([...Object.entries(kwargs), ['telemetry_schema_version', 'hermes.observer.v1']]);
      }),
    );
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const tagged = withTelemetryTag(parsed);
    expect(Object.keys(tagged)).toEqual(['a', '__proto__', 'telemetry_schema_version']);
    expect(tagged.polluted).toBeUndefined();
  });
  it('pre_tool_call args become an object, in place or after tool_name, and other keys stay own keys (§1.5)', () => {
    expect(Object.entries(withObjectArgs({ tool_name: 't', args: ['ls'], x: 1 }))).toEqual([
      ['tool_name', 't'],
      ['args', {}],
      ['x', 1],
    ]);
    expect(Object.keys(withObjectArgs({ session_id: 's', tool_name: 't', x: 1 }))).toEqual([
      'session_id',
      'tool_name',
      'args',
      'x',
    ]);
    expect(Object.keys(withObjectArgs({ x: 1 }))).toEqual(['x', 'args']);
    const kwargs = { tool_name: 't', args: { command: 'ls' } };
    expect(withObjectArgs(kwargs)).toBe(kwargs);
    const parsed = JSON.parse('{"tool_name":"t","__proto__":{"polluted":true},"args":"ls"}') as Record<string, unknown>;
    const fixed = withObjectArgs(parsed);
    expect(Object.keys(fixed)).toEqual(['tool_name', '__proto__', 'args']);
    expect(Object.getPrototypeOf(fixed)).toBe(Object.prototype);
    expect(fixed.polluted).toBeUndefined();
  });
  it('hooks home: HOOKGATE_HOME, then HERMES_HOME, then ~/.hermes; empty counts as unset (§0.1)', () => {
    expect(resolveHooksHome({ HOOKGATE_HOME: '/a', HERMES_HOME: '/b' })).toBe('/a');
    expect(resolveHooksHome({ HOOKGATE_HOME: '', HERMES_HOME: '/b' })).toBe('/b');
    expect(resolveHooksHome({ HOOKGATE_HOME: '', HERMES_HOME: '' })).toMatch(/\.hermes$/);
  });
  it('code-point order differs from UTF-16 order outside the BMP', () => {
    expect(['\u{1F600}', '\uFFFF', 'B', 'a'].sort(compareCodePoints)).toEqual(['B', 'a', '\uFFFF', '\u{1F600}']);
  });
});

describe('cuts in characters, as Python counts them (§4.2, §5.2)', () => {
  it('counts code points: an emoji is one character and a surrogate pair is never split', () => {
    const emoji = '😀'.repeat(450);
    expect([...firstCharacters(emoji, 400)]).toHaveLength(400);
    expect(firstCharacters('ab', 400)).toBe('ab');
    const clipped = clipCharacters(emoji, 400);
    expect([...clipped]).toHaveLength(400);
    expect(clipped.endsWith('😀...')).toBe(true);
    expect(clipCharacters('😀'.repeat(400), 400)).toBe('😀'.repeat(400));
    expect(clipCharacters('abcdef', 5)).toBe('ab...');
  });
});

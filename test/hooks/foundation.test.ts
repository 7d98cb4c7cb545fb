import { describe, expect, it } from 'vitest';
import {
  HOOK_KINDS,
  HOOK_NAMES,
  KWARGS_KEY_ORDER,
  KWARGS_SCHEMAS,
  VALID_HOOK_NAMES_TEXT,
  hookKind,
  orderKwargs,
} from '../../src/hooks/catalogue.ts';
import { compareCodePoints } from '../../src/hooks/code-point-order.ts';
import { resolveHooksHome } from '../../src/hooks/hooks-home.ts';
import { isTruthy } from '../../src/hooks/python-truthiness.ts';
import { withTelemetryTag } from '../../src/hooks/telemetry-tag.ts';
import { renderWireJson, WireJsonError } from '../../src/hooks/wire-json.ts';

describe('Python truthiness (§0.3)', () => {
  class Thing {}
  it.each([
    [null, false], [undefined, false], [false, false], [0, false], [-0, false], [Number.NaN, false], ['', false], [[], false], [{}, false],
    [Object.create(null), false],
    [true, true], [1, true], [-1, true], [0.1, true], ['0', true], [' ', true], ['false', true], [[0], true], [{ a: undefined }, true],
    [new Thing(), true], [new Map(), true], [() => 0, true], [Number.POSITIVE_INFINITY, true],
  ])('%o → %s', (value, expected) => {
    expect(isTruthy(value)).toBe(expected);
  });
});

describe('wire JSON (§0.4)', () => {
  const weird = { toString: () => '<weird>' };
  Object.setPrototypeOf(weird, { toString: () => '<weird>' });
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

describe('catalogue (§0.6, §1.4)', () => {
  it('has exactly the 19 names, sorted by code point, in the valid-names text', () => {
    expect(HOOK_NAMES).toHaveLength(19);
    expect(VALID_HOOK_NAMES_TEXT).toBe(
      'api_request_error, on_session_end, on_session_finalize, on_session_reset, on_session_start, post_api_request, post_approval_response, post_llm_call, post_tool_call, pre_api_request, pre_approval_request, pre_gateway_dispatch, pre_llm_call, pre_tool_call, subagent_start, subagent_stop, transform_llm_output, transform_terminal_output, transform_tool_result',
    );
  });
  it('decision hooks are exactly the six whose return value is used', () => {
    expect(Object.entries(HOOK_KINDS).filter(([, kind]) => kind === 'decision').map(([name]) => name).sort()).toEqual([
      'pre_gateway_dispatch', 'pre_llm_call', 'pre_tool_call', 'transform_llm_output', 'transform_terminal_output', 'transform_tool_result',
    ]);
    expect(hookKind('future_hook')).toBe('observer');
  });
  it('has a kwargs schema and key order for every hook', () => {
    expect(Object.keys(KWARGS_SCHEMAS).sort()).toEqual([...HOOK_NAMES]);
    expect(Object.keys(KWARGS_KEY_ORDER).sort()).toEqual([...HOOK_NAMES]);
    expect(KWARGS_KEY_ORDER.transform_tool_result).not.toContain('middleware_trace');
    expect(KWARGS_KEY_ORDER.transform_terminal_output).toEqual(['command', 'output', 'returncode', 'task_id', 'env_type']);
  });
  it('schemas accept partial kwargs and unknown keys, reject wrong types with the field named', () => {
    expect(KWARGS_SCHEMAS.pre_tool_call.safeParse({ tool_name: 't', extra_key: 1 }).success).toBe(true);
    expect(KWARGS_SCHEMAS.pre_tool_call.safeParse({ args: ['not', 'an', 'object'] }).success).toBe(true);
    const bad = KWARGS_SCHEMAS.transform_terminal_output.safeParse({ returncode: 'zero' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['returncode']);
    expect(KWARGS_SCHEMAS.subagent_stop.safeParse({ child_role: null }).success).toBe(true);
  });
  it('orderKwargs puts known keys in table order, then the others, dropping undefined', () => {
    const out = orderKwargs('post_llm_call', { platform: 'cli', extra: 1, model: 'm', session_id: 's', task_id: undefined });
    expect(Object.keys(out)).toEqual(['session_id', 'model', 'platform', 'extra']);
  });
});

describe('small rules', () => {
  it('telemetry tag is appended last, and a supplied one is kept', () => {
    expect(Object.entries(withTelemetryTag({ b: 1, a: 2 }))).toEqual([['b', 1], ['a', 2], ['telemetry_schema_version', 'hermes.observer.v1']]);
    expect(withTelemetryTag({ telemetry_schema_version: 'x' })).toEqual({ telemetry_schema_version: 'x' });
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

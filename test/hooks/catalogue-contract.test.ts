import { describe, expect, it } from 'vitest';
import {
  HOOKS,
  INTERNAL_HOOKS,
  HOOK_KINDS,
  HOOK_NAMES,
  KWARGS_KEY_ORDER,
  KWARGS_SCHEMAS,
  VALID_HOOK_NAMES_TEXT,
  hookKind,
  orderKwargs,
} from '../../src/hooks/catalogue.ts';
import { CONTRACT_KEY_ORDER } from './support/contract-key-order.ts';

// Field types shared by several hooks. Every key is optional: callers outside the
// process (the `/v1` API, `hooks test` payloads) send partial kwargs, and callbacks must

const DECISION_HOOKS = [
  'pre_gateway_dispatch',
  'pre_llm_call',
  'pre_tool_call',
  'transform_llm_output',
  'transform_terminal_output',
  'transform_tool_result',
];

describe('hook catalogue (§0.6, §1.4)', () => {
  it('has exactly the 19 names, sorted by code point, in the valid-names text', () => {
    expect(HOOK_NAMES).toHaveLength(19);
    expect([...HOOK_NAMES]).toEqual(Object.keys(CONTRACT_KEY_ORDER).sort());
    expect(Object.keys(HOOKS).sort()).toEqual([...HOOK_NAMES]);
    expect(VALID_HOOK_NAMES_TEXT).toBe(
      'api_request_error, on_session_end, on_session_finalize, on_session_reset, on_session_start, post_api_request, post_approval_response, post_llm_call, post_tool_call, pre_api_request, pre_approval_request, pre_gateway_dispatch, pre_llm_call, pre_tool_call, subagent_start, subagent_stop, transform_llm_output, transform_terminal_output, transform_tool_result',
    );
  });
  it('decision hooks are exactly the six whose return value is used; the rest are observers', () => {
    expect(
      Object.entries(HOOK_KINDS)
        .filter(([, kind]) => kind === 'decision')
        .map(([name]) => name)
        .sort(),
    ).toEqual(DECISION_HOOKS);
    expect(Object.entries(HOOK_KINDS).filter(([, kind]) => kind !== 'observer' && kind !== 'decision')).toEqual([]);
    expect(hookKind('future_hook')).toBe('observer');
  });
  it.each(Object.entries(CONTRACT_KEY_ORDER))('%s: kwargs keys in contract order', (hook, order) => {
    expect(KWARGS_KEY_ORDER[hook as keyof typeof KWARGS_KEY_ORDER]).toEqual(order);
    expect(Object.keys(KWARGS_SCHEMAS[hook as keyof typeof KWARGS_SCHEMAS].shape)).toEqual(order);
  });
  it('builds each kwargs schema on its first read, once (not at import: docs/performance.md#cold-start)', () => {
    for (const [name, hook] of [...Object.entries(HOOKS), ...Object.entries(INTERNAL_HOOKS)]) {
      expect(typeof Object.getOwnPropertyDescriptor(hook, 'kwargs')?.get, name).toBe('function');
      expect(hook.kwargs, name).toBe(hook.kwargs);
      expect(Object.keys(hook.kwargs.shape), name).toEqual(hook.keys);
    }
    expect(KWARGS_SCHEMAS.pre_tool_call).toBe(HOOKS.pre_tool_call.kwargs);
    expect(Object.keys(KWARGS_SCHEMAS)).toEqual(Object.keys(HOOKS));
  });
  it('every decision hook has an aggregation rule and a trace description; observers have neither', () => {
    for (const [name, hook] of Object.entries(HOOKS)) {
      if (hook.kind === 'decision') {
        expect(typeof hook.answer, name).toBe('function');
        expect(typeof hook.trace.describe([]), name).toBe('string');
      } else {
        expect('answer' in hook, name).toBe(false);
      }
    }
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
    expect(Object.keys(orderKwargs('future_hook', { b: 1, a: 2 }))).toEqual(['b', 'a']);
  });
});

import { describe, expect, it } from 'vitest';
import { gestaltRatio, suggestHookName } from '../../src/hooks/shell/config/did-you-mean.ts';

describe('suggestHookName (§3.2 expected suggestions)', () => {
  it.each([
    ['pre_tools_call', 'pre_tool_call'],
    ['pretoolcall', 'pre_tool_call'],
    ['pre_tool', 'pre_tool_call'],
    ['post_tool', 'post_tool_call'],
    ['on_session_started', 'on_session_start'],
    ['on_start', 'on_session_start'],
    ['session_start', 'on_session_start'],
    ['on_sesion_end', 'on_session_end'],
    ['subagent_end', 'subagent_stop'],
    ['transform_output', 'transform_llm_output'],
    ['transform_result', 'transform_tool_result'],
    ['pre_llm', 'pre_llm_call'],
    ['pre_approval', 'pre_approval_request'],
    ['gateway_dispatch', 'pre_gateway_dispatch'],
    ['PreToolUse', undefined],
    ['PostToolUse', undefined],
    ['foo', undefined],
  ])('%s → %s', (typed, suggestion) => {
    expect(suggestHookName(typed)).toBe(suggestion);
  });

  it('computes the Ratcliff/Obershelp ratio as difflib does', () => {
    // difflib.SequenceMatcher(None, 'abcd', 'bcde').ratio() == 0.75
    expect(gestaltRatio('abcd', 'bcde')).toBe(0.75);
    // matching blocks of ('pre_tool_call', 'pre_tools_call'): 'pre_tool' + '_call' = 13
    expect(gestaltRatio('pre_tool_call', 'pre_tools_call')).toBeCloseTo(26 / 27, 12);
    expect(gestaltRatio('', '')).toBe(1);
  });
});

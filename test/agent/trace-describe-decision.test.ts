import { describe, expect, it } from 'vitest';
import { DECISION_HOOKS, decisionChange, decisionContent, describeDecision } from '../../src/agent/trace/describe-decision.ts';

describe('trace words for decision hooks (from the catalogue)', () => {
  it.each([
    ['pre_tool_call', [{ action: 'block', message: 'no' }], 'block: no', 'no'],
    ['pre_tool_call', [{ action: 'rewrite', args: { command: 'ls' } }], 'rewrite', 'rewrite {"command":"ls"}'],
    [
      'pre_tool_call',
      [
        { action: 'rewrite', args: { command: 'ls' } },
        { action: 'block', message: 'no' },
      ],
      'block: no',
      'no',
    ],
    ['pre_tool_call', [], 'allow', undefined],
    ['pre_llm_call', [{ context: 'A' }, 'B'], 'context (4 chars)', 'A\n\nB'],
    ['pre_llm_call', [], 'no context', undefined],
    ['transform_llm_output', ['', 'x'], 'replaced', 'x'],
    ['transform_llm_output', [''], 'unchanged', undefined],
    ['transform_tool_result', [''], 'replaced', ''],
    ['transform_terminal_output', [{}], 'unchanged', undefined],
    // Decided by the gateway, by hookgate itself, or not a decision at all: only counted.
    ['pre_gateway_dispatch', [{ action: 'skip' }], '1 result(s)', undefined],
    ['permission_request', [], 'no result', undefined],
    ['post_tool_call', ['a', 'b'], '2 result(s)', undefined],
    ['future_hook', [], 'no result', undefined],
  ])('%s %j → %s', (hook, results, word, content) => {
    expect(describeDecision(hook, results)).toBe(word);
    expect(decisionContent(hook, results)).toBe(content);
  });

  it('says what changed when only the content differs', () => {
    expect(decisionChange('pre_llm_call')).toBe('context changed');
    expect(decisionChange('transform_tool_result')).toBe('transform changed');
    expect(decisionChange('transform_terminal_output')).toBe('transform changed');
    expect(decisionChange('pre_tool_call')).toBe('decision changed');
    expect(decisionChange('permission_request')).toBe('decision changed');
  });

  it('the decision hooks are the catalogue’s', () => {
    expect([...DECISION_HOOKS].sort()).toEqual([
      'pre_gateway_dispatch',
      'pre_llm_call',
      'pre_tool_call',
      'transform_llm_output',
      'transform_terminal_output',
      'transform_tool_result',
    ]);
  });
});

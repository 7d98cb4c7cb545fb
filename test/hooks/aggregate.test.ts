import { describe, expect, it } from 'vitest';
import {
  blockMessage,
  commandDecision,
  firstNonEmptyString,
  firstString,
  gatewayDispatchAction,
  joinLlmContext,
} from '../../src/hooks/aggregate/index.ts';
import { hookAnswer, type HookName } from '../../src/hooks/catalogue.ts';

describe('pre_tool_call block message (§1.5)', () => {
  it.each([
    [[], undefined],
    [
      ['block', 123, { action: 'block' }, { action: 'deny', message: 'x' }, { message: 'x' }, { action: 'block', message: 123 }],
      undefined,
    ],
    [[{ action: 'Block', message: 'case' }], undefined],
    [[{ action: 'block', message: '' }], undefined],
    [
      [
        { action: 'block', message: 'first' },
        { action: 'block', message: 'second' },
      ],
      'first',
    ],
    [[{ action: 'allow' }, { action: 'block', message: 'late' }], 'late'],
    [[[{ action: 'block', message: 'in a list' }]], undefined],
  ])('%j → %j', (results, expected) => {
    expect(blockMessage(results)).toBe(expected);
  });
});

describe('pre_llm_call context join (§1.9)', () => {
  it.each([
    [[], undefined],
    [[{ context: 'A' }, { context: 'B' }], 'A\n\nB'],
    [['  ', '\n', ''], undefined],
    [['  padded  '], '  padded  '],
    [[{ context: '' }, { context: 0 }, { context: [] }, { context: {} }, { context: null }], undefined],
    [[{ context: ['x', 1] }, { context: { k: 'v' } }], '["x",1]\n\n{"k":"v"}'],
    [[{ context: 42 }, { context: true }], '42\n\ntrue'],
    // Not a plain object or a list: String(), not JSON (§0.3's "object").
    [
      [
        { context: new Date(0) },
        {
          context: new (class Note {
            toString = () => 'from toString';
          })(),
        },
      ],
      `${String(new Date(0))}\n\nfrom toString`,
    ],
    [[{ context: '' }, 'fallback'], 'fallback'],
    [[123, false, ['context'], { other: 'x' }], undefined],
  ])('%j → %j', (results, expected) => {
    expect(joinLlmContext(results)).toBe(expected);
  });
});

describe('transform first string incl. "" (§1.7, §1.8) vs first non-empty string (§1.10)', () => {
  it('first string includes the empty string', () => {
    expect(firstString([{ result: 'x' }, 42, [], '', 'later'])).toBe('');
    expect(firstString([{}, 1, true])).toBeUndefined();
  });
  it('the §1.10 example picks first-winner', () => {
    expect(firstNonEmptyString([null, '', { text: 'x' }, 123, 'first-winner', 'second'])).toBe('first-winner');
    expect(firstNonEmptyString(['', ''])).toBeUndefined();
  });
});

describe('pre_gateway_dispatch first recognised action (§1.12)', () => {
  it.each([
    [[], { action: 'allow' }],
    [['skip', { action: 'SKIP' }, { action: 'skip', reason: 'quiet' }], { action: 'skip', reason: 'quiet' }],
    [[{ action: 'skip' }], { action: 'skip' }],
    [[{ action: 'rewrite', text: '' }, { action: 'skip' }], { action: 'rewrite', text: '' }],
    [[{ action: 'rewrite', text: 42 }, { action: 'skip' }], { action: 'allow' }],
    [[{ action: 'rewrite' }, { action: 'skip' }], { action: 'allow' }],
    [[{ action: 'allow' }, { action: 'skip' }], { action: 'allow' }],
    [[{ action: 'other' }, {}, { action: 'skip', reason: 'r' }], { action: 'skip', reason: 'r' }],
  ])('%j → %j', (results, expected) => {
    expect(gatewayDispatchAction(results)).toEqual(expected);
  });
});

describe('command:<name> decisions (§2.5)', () => {
  it.each([
    [[], { kind: 'run' }],
    [['deny', 1, {}], { kind: 'run' }],
    [[{ decision: 'allow' }, { decision: 'deny' }], { kind: 'deny', reply: 'Command `/rst` was blocked by a hook.' }],
    [[{ decision: ' DENY ', message: 'nope' }], { kind: 'deny', reply: 'nope' }],
    [[{ decision: 'deny', message: '' }], { kind: 'deny', reply: 'Command `/rst` was blocked by a hook.' }],
    [[{ decision: 'handled' }], { kind: 'handled' }],
    [[{ decision: 'Handled', message: 'done' }], { kind: 'handled', reply: 'done' }],
    [[{ decision: 'rewrite', command_name: '//model', raw_args: '  gpt  ' }], { kind: 'rewrite', text: '/model gpt' }],
    [[{ decision: 'rewrite', command_name: 'new', raw_args: null }], { kind: 'rewrite', text: '/new' }],
    [
      [{ decision: 'rewrite', command_name: null }, { decision: 'deny' }],
      { kind: 'deny', reply: 'Command `/rst` was blocked by a hook.' },
    ],
    [[{ decision: 'rewrite', command_name: ' / ' }, { decision: 'handled' }], { kind: 'handled' }],
    [[{ decision: 'maybe' }, { decision: null }, { decision: 'handled' }], { kind: 'handled' }],
  ])('%j → %j', (results, expected) => {
    expect(commandDecision(results, 'rst')).toEqual(expected);
  });
});

describe('hookAnswer: the /v1/hooks/{hook} shapes (architecture §4)', () => {
  it.each([
    ['pre_tool_call', [], { action: 'allow' }],
    ['pre_tool_call', [{ action: 'block', message: 'm' }], { action: 'block', message: 'm' }],
    ['pre_llm_call', [], {}],
    ['pre_llm_call', ['c'], { context: 'c' }],
    ['transform_tool_result', [''], { result: '' }],
    ['transform_tool_result', [{}], {}],
    ['transform_terminal_output', ['o'], { output: 'o' }],
    ['transform_llm_output', ['', 'r'], { response_text: 'r' }],
    ['transform_llm_output', [''], {}],
    ['pre_gateway_dispatch', [{ action: 'rewrite', text: 't' }], { action: 'rewrite', text: 't' }],
    ['post_tool_call', ['ignored'], {}],
    // A JavaScript caller of the library can pass any name: an unknown one answers like an observer.
    ['not_a_hook', ['ignored'], {}],
  ])('%s %j → %j', (hook, results, expected) => {
    expect(hookAnswer(hook as HookName, results)).toEqual(expected);
  });
});

describe('results that cannot be read or turned into text are ignored, never thrown (issue #14 item 2)', () => {
  const unprintable = {
    toString() {
      throw new Error('no text');
    },
  };
  const throwingGetter = new Proxy(
    {},
    {
      get() {
        throw new Error('no field');
      },
    },
  );

  it('command:<name>: a decision, command_name or raw_args whose toString throws', () => {
    expect(commandDecision([{ decision: unprintable }, { decision: 'deny', message: 'm' }], 'rst')).toEqual({
      kind: 'deny',
      reply: 'm',
    });
    expect(commandDecision([{ decision: 'rewrite', command_name: unprintable }], 'rst')).toEqual({ kind: 'run' });
    expect(commandDecision([{ decision: 'rewrite', command_name: 'x', raw_args: unprintable }], 'rst')).toEqual({ kind: 'run' });
    expect(commandDecision([throwingGetter, { decision: 'handled' }], 'rst')).toEqual({ kind: 'handled' });
  });

  it('pre_llm_call, pre_tool_call and pre_gateway_dispatch skip such results', () => {
    const cyclic: Record<string, unknown> = {
      toString() {
        throw new Error('no text');
      },
    };
    cyclic.self = cyclic; // JSON fails too
    expect(joinLlmContext([{ context: cyclic }, throwingGetter, 'B'])).toBe('B');
    expect(blockMessage([throwingGetter, { action: 'block', message: 'no' }])).toBe('no');
    expect(gatewayDispatchAction([throwingGetter, { action: 'skip' }])).toEqual({ action: 'skip' });
  });
});

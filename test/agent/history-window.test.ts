import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitHistoryWindow } from '../../src/agent/turn/history-window.ts';
import type { TranscriptMessage } from '../../src/store/transcript-store.ts';

const turn = (n: number, tools: number): TranscriptMessage[] => [
  { role: 'user', content: `q${n}` },
  ...Array.from({ length: tools }, (_, t): TranscriptMessage[] => [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${n}.${t}`, type: 'function', function: { name: 'terminal', arguments: '{}' } }],
    },
    { role: 'tool', content: `r${n}.${t}`, tool_call_id: `c${n}.${t}` },
  ]).flat(),
  { role: 'assistant', content: `a${n}` },
];

describe('fitHistoryWindow (docs/turn-runtime.md, long sessions)', () => {
  it('keeps everything that fits', () => {
    const history = [...turn(1, 1), ...turn(2, 0)];
    expect(fitHistoryWindow(history, { maxMessages: 100, maxChars: 1e6 })).toEqual(history);
  });

  it('cuts at a user message, so no tool result is left without its call', () => {
    const history = [...turn(1, 2), ...turn(2, 1)]; // 6 + 4 messages
    expect(fitHistoryWindow(history, { maxMessages: 5, maxChars: 1e6 })).toEqual(turn(2, 1));
  });

  it('drops a last turn that alone exceeds the window rather than cutting it', () => {
    expect(fitHistoryWindow(turn(1, 3), { maxMessages: 4, maxChars: 1e6 })).toEqual([]);
  });

  it('for any session: within both limits, a suffix, starting at a user message', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(4), fc.string({ maxLength: 30 })), { maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 2000 }),
        (turns, maxMessages, maxChars) => {
          const history = turns.flatMap(([tools, text], n) =>
            turn(n, tools).map((m) => (m.role === 'user' ? { ...m, content: text } : m)),
          );
          const fitted = fitHistoryWindow(history, { maxMessages, maxChars });
          expect(fitted.length).toBeLessThanOrEqual(maxMessages);
          expect(fitted.reduce((sum, m) => sum + JSON.stringify(m).length, 0)).toBeLessThanOrEqual(maxChars);
          expect(history.slice(history.length - fitted.length)).toEqual(fitted);
          if (fitted.length > 0) expect(fitted[0]!.role).toBe('user');
        },
      ),
    );
  });
});

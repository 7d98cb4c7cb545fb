import { describe, expect, it } from 'vitest';
import { formatTurnList } from '../../src/cli/commands/trace.ts';
import type { TurnSummary } from '../../src/store/turn-summary.ts';

const turn = (over: Partial<TurnSummary>): TurnSummary => ({
  turn_id: 't1',
  session_id: 's1',
  at: '2026-12-03T10:00:00.000Z',
  duration_ms: 12,
  platform: 'local',
  chat_id: 'c1',
  user_id: 'u1',
  first_line: 'hello',
  hooks: [],
  decisions: [],
  blocked: false,
  error: false,
  approval: false,
  records: 0,
  ...over,
});

describe('hookgate trace --list rows', () => {
  it('escape what a chat user chose: a newline, an ANSI sequence or a bidi override cannot forge a row or drive the terminal', () => {
    const out = formatTurnList([turn({ chat_id: 'c1\nFAKE ROW', user_id: 'u\u001b[31mred', first_line: 'look \u202Eevil' })]);
    expect(out.split('\n')).toHaveLength(2); // the header and one row
    expect(out).not.toMatch(/[\u001b\u202E]/);
    expect(out).toContain('FAKE ROW'); // still shown, escaped
  });
});

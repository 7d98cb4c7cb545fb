import { describe, expect, it } from 'vitest';
import { hookSummary } from '../../src/cli/commands/chat.ts';
import type { TraceRecord } from '../../src/store/trace-store.ts';

const at = '2026-12-06T06:40:00.000Z';
const turn_id = 'turn_1';

describe('hookgate chat: the hook summary of a turn', () => {
  const inline: TraceRecord[] = [
    {
      turn_id,
      at,
      call: 1,
      phase: 'decide',
      hook: 'pre_llm_call',
      source: 'plugin',
      callback: 'guard:addContext',
      decision: 'context (12 chars)',
      duration_ms: 0,
    },
    {
      turn_id,
      at,
      call: 2,
      phase: 'observe',
      hook: 'agent:start',
      source: '-',
      callback: '-',
      decision: 'emitted',
      duration_ms: 0,
    },
    {
      turn_id,
      at,
      call: 3,
      phase: 'observe',
      hook: 'agent:end',
      source: '-',
      callback: '-',
      decision: 'emitted',
      duration_ms: 0,
    },
  ];
  const observerSide: TraceRecord = {
    turn_id,
    at,
    phase: 'observe',
    hook: 'agent:start',
    source: 'gateway',
    callback: 'agent-log',
    decision: 'observed (observer side)',
    duration_ms: 1,
  };

  it('names the inline hook calls and the events emitted', () => {
    expect(hookSummary(inline)).toBe(
      '1 hook call: pre_llm_call plugin guard:addContext → context (12 chars); emitted agent:start, agent:end',
    );
  });

  it('is the same whether or not the observer consumer has written its rows yet', () => {
    expect(hookSummary([...inline, observerSide])).toBe(hookSummary(inline));
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { TurnHooks } from '../../src/agent/turn/turn-hooks.ts';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';

let home: TempHome | undefined;
let engine: LoadedHookEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await home?.remove();
});

/** docs/telemetry.md §2 and §4: spans and hook metrics are per callback; a decision nobody was asked for is in the trace only. */
describe('TurnHooks: what telemetry gets of a hook call', () => {
  it('a decision hook with no callback: a trace record (replay runs it again), no span', async () => {
    home = await tempHome({});
    engine = await createHookEngine({ home: home.path, env: {}, logger: createMemoryLogger(), print: () => {} });
    const hooks = new TurnHooks(engine, createMemoryLogger(), { session_id: 's1', turn_id: 't1' });
    await hooks.decide('pre_llm_call', {
      session_id: 's1',
      task_id: 's1',
      turn_id: 't1',
      user_message: 'hi',
      conversation_history: [],
      is_first_turn: true,
      model: 'm',
      platform: 'local',
      sender_id: 'u1',
    });
    await hooks.observe('agent:step', { platform: 'local', user_id: 'u1', session_id: 's1', iteration: 1, tool_names: [] });
    expect(hooks.trace.map((r) => [r.hook, r.source])).toEqual([
      ['pre_llm_call', '-'],
      ['agent:step', '-'],
    ]);
    const spans = hooks.spans.operations.filter((o) => o.kind === 'hook');
    expect(spans.map((o) => o.kind === 'hook' && [o.hook, o.decision])).toEqual([['agent:step', 'emitted']]);
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { NO_HOOKS_ENGINE } from '../../src/agent/turn/no-hooks-engine.ts';
import { TurnHooks } from '../../src/agent/turn/turn-hooks.ts';
import { hookAnswer, type AnswerOf, type HookName, type KwargsOf } from '../../src/hooks/catalogue.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';

/**
 * The catalogue's types at the call sites. `npm run typecheck` compiles this file: every
 * `@ts-expect-error` line must be an error (a misspelled hook name, an unknown kwarg, a kwarg
 * of the wrong type), or the typecheck fails on the unused directive. The calls also run,
 * against the engine with no hooks, so the lines are real calls, not dead code.
 */
describe('hook catalogue types', () => {
  const hooks = new TurnHooks(NO_HOOKS_ENGINE, createMemoryLogger(), { session_id: 's', turn_id: 't' });

  it('engine.invoke takes catalogue names and their kwargs, and answers the hook’s answer type', async () => {
    const answer = await NO_HOOKS_ENGINE.invoke('pre_tool_call', {
      tool_name: 'terminal',
      args: { command: 'ls' },
      session_id: 's',
    });
    expectTypeOf(answer).toEqualTypeOf<AnswerOf<'pre_tool_call'>>();
    if (answer.action === 'block') expectTypeOf(answer.message).toBeString();
    // @ts-expect-error misspelled hook name
    await NO_HOOKS_ENGINE.invoke('pre_tool_cal', {});
    // @ts-expect-error misspelled kwarg
    await NO_HOOKS_ENGINE.invoke('pre_tool_call', { tool_nme: 'terminal' });
    // @ts-expect-error kwarg of the wrong type
    await NO_HOOKS_ENGINE.invoke('transform_terminal_output', { returncode: 'zero' });
    // @ts-expect-error a kwarg of another hook
    await NO_HOOKS_ENGINE.invoke('on_session_start', { tool_name: 'terminal' });
    expect(answer).toEqual({});
  });

  it('engine.observe takes observer hooks and gateway events, not decision hooks', async () => {
    await NO_HOOKS_ENGINE.observe('on_session_start', { session_id: 's', model: 'm', platform: 'cli' });
    await NO_HOOKS_ENGINE.observe('agent:step', { anything: 1 });
    // @ts-expect-error misspelled observer hook (no colon, so not a gateway event either)
    await NO_HOOKS_ENGINE.observe('on_sesion_start', {});
    // @ts-expect-error a decision hook is not observed
    await NO_HOOKS_ENGINE.observe('pre_tool_call', {});
    // @ts-expect-error kwarg of the wrong type
    await NO_HOOKS_ENGINE.observe('subagent_stop', { duration_ms: '5' });
    expect(NO_HOOKS_ENGINE.hasObservers('on_session_start')).toBe(false);
  });

  it('TurnHooks.decide and observe are typed the same way', async () => {
    expect(
      await hooks.decide('transform_llm_output', { response_text: 'hi', session_id: 's', model: 'm', platform: 'cli' }),
    ).toEqual([]);
    expect(await hooks.decide('permission_request', { command: 'rm -rf /', session_id: 's' })).toEqual([]);
    // @ts-expect-error misspelled hook name
    await hooks.decide('transform_llm_outptu', {});
    // @ts-expect-error an observer hook decides nothing
    await hooks.decide('post_llm_call', {});
    // @ts-expect-error kwarg of the wrong type
    await hooks.decide('pre_llm_call', { is_first_turn: 'yes' });
    await hooks.observe('post_llm_call', () => ({ assistant_response: 'hi' }), { gated: true });
    // @ts-expect-error misspelled kwarg in a lazily built payload
    await hooks.observe('post_llm_call', () => ({ assistant_reponse: 'hi' }), { gated: true });
    // The gated observe sent nothing (no callback): only the decide calls are traced, the rejected ones included.
    expect(hooks.trace.map((record) => record.hook)).toEqual([
      'transform_llm_output',
      'permission_request',
      'transform_llm_outptu',
      'post_llm_call',
      'pre_llm_call',
    ]);
  });

  it('KwargsOf and AnswerOf come from the table', () => {
    expectTypeOf<KwargsOf<'on_session_start'>['platform']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AnswerOf<'post_tool_call'>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<'pre_tool_call'>().toExtend<HookName>();
    expectTypeOf<'pre_tool_cal'>().not.toExtend<HookName>();
    expect(hookAnswer('transform_llm_output', ['', 'x'])).toEqual({ response_text: 'x' });
  });
});

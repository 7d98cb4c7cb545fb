import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTurnHarness, type HookCall, type TurnHarness } from './support/turn-harness.ts';

// hook-semantics §2.4: session:start consumes the reset's "fresh" flag, so it fires once per
// reset, even when the reset's first turn ends without recording itself (here: suspended for an
// approval) and another message of the chat runs meanwhile.
const DANGEROUS = 'mkdir -p scratch && chmod -R 777 scratch && echo opened';
const starts = (calls: HookCall[]) => calls.filter((c) => c.hook === 'session:start');

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness();
});
afterAll(async () => {
  await h?.close();
});

it('fires session:start once per reset when the first turn after it waits for an approval', async () => {
  h.model.script({ content: 'warm' });
  await h.say('before the reset', 'once');
  // What /new does (§1.13.1 step 2): the chat rotates to a fresh session.
  const { current } = await h.plane.sessions.rotate('local:once', {
    platform: 'local',
    chat_id: 'once',
    thread_id: '',
    user_id: 'u1',
    chat_type: 'dm',
  });
  await h.takeCalls();

  h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: DANGEROUS }, id: 'call_once' }] });
  expect((await h.say('please open it up', 'once')).outcome).toBe('suspended');
  expect(starts(await h.takeCalls()).map((c) => c.kwargs.session_id)).toEqual([current.session_id]);

  h.model.script({ content: 'meanwhile' });
  expect((await h.say('another message', 'once')).outcome).toBe('completed');
  expect(starts(await h.takeCalls())).toEqual([]);
});

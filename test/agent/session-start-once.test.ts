import { afterAll, beforeAll, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../src/agent/attachments/attachment-limits.ts';
import { startTurnHarness, userMessage, type HookCall, type TurnHarness } from './support/turn-harness.ts';

// The session's start hooks fire once per new session or reset, on the turn that holds the
// session's first run: hook-semantics §2.4 (session:start consumes the reset's "fresh" flag) and
// §1.13 (on_session_start fires on a brand-new session's first turn, not on continuation turns),
// also when that first turn ends without recording itself (suspended for an approval) and another
// message of the chat runs meanwhile, or is refused before any hook.
const DANGEROUS = 'mkdir -p scratch && chmod -R 777 scratch && echo opened';
const starts = (calls: HookCall[]) => calls.filter((c) => c.hook === 'session:start');
const sessionStarts = (calls: HookCall[]) => calls.filter((c) => c.hook === 'on_session_start');

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

it('fires on_session_start once for a new session whose first turn waits for an approval', async () => {
  h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: DANGEROUS }, id: 'call_first' }] });
  expect((await h.say('please open it up', 'first-run')).outcome).toBe('suspended');
  const first = sessionStarts(await h.takeCalls());
  expect(first).toHaveLength(1);

  h.model.script({ content: 'meanwhile' });
  expect((await h.say('another message', 'first-run')).outcome).toBe('completed');
  expect(sessionStarts(await h.takeCalls())).toEqual([]);
  expect((await h.plane.sessions.current('local:first-run'))?.session_id).toBe(first[0]!.kwargs.session_id);
});

it("leaves the session's first run to the next message when the first is refused for its attachment (before any hook)", async () => {
  const refused = userMessage('listen to this', 'refused-first');
  if (refused.kind !== 'message') throw new Error('a message turn');
  const size = ATTACHMENT_LIMITS.maxBytes.audio + 1;
  refused.event.attachments = [
    { kind: 'audio', mime_type: 'audio/ogg', size, name: 'long.ogg', source: { platform: 'local', data_base64: '' } },
  ];
  const out = await h.invoke(refused);
  expect(out.batchItemFailures).toEqual([]);
  expect(sessionStarts(await h.takeCalls())).toEqual([]);

  h.model.script({ content: 'hello' });
  expect((await h.say('hello', 'refused-first')).outcome).toBe('completed');
  expect(sessionStarts(await h.takeCalls())).toHaveLength(1);
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderShellPayload } from '../../src/hooks/shell/shell-payload.ts';
import { startTestAws } from '../support/local-aws.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';
import { recordingEngine, type RecordingEngine } from './support/recording-engine.ts';

let aws: RunningEmulators;
let engine: RecordingEngine;
let gw: GatewayHarness;
let chat = 0;
let chatId = '';

beforeAll(async () => {
  aws = await startTestAws();
});
afterAll(async () => {
  gw?.plane.destroy();
  await aws?.stop();
});
const setup = async (env: NodeJS.ProcessEnv = {}) => {
  gw?.plane.destroy();
  engine = recordingEngine();
  gw = gatewayHarness(aws, env, engine);
  await gw.drainTurns();
};
beforeEach(async () => {
  chatId = `chat-${++chat}`;
  await setup();
});

const say = async (text: string, userId = 'u1') => {
  const res = await gw.request('/webhooks/local', { body: JSON.stringify({ chat_id: chatId, user_id: userId, text }) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { delivery_id: string }).delivery_id;
};
const replies = async () => {
  const res = await gw.request(`/webhooks/local/messages?chat_id=${chatId}`, { method: 'GET' });
  return ((await res.json()) as { text: string; at: string }[]).map((m) => m.text);
};
const observed = () => engine.calls.filter((c) => c.op === 'observe');
/** A suspended turn's approval waiting in this test's chat, as the turn runtime stores it; answers the session key. */
const putPendingApproval = async (command: string, patternKey: string, requester = 'u1', state: unknown = { any: 'thing' }) => {
  const key = `local:${chatId}`;
  const now = new Date();
  await gw.plane.approvals.putPending({
    approval_id: `ap-${chatId}`,
    session_key: key,
    session_id: 's1',
    turn_id: 't1',
    command,
    description: patternKey,
    pattern_key: patternKey,
    pattern_keys: [patternKey],
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 60_000).toISOString(),
    requested_by: { platform: 'local', chat_id: chatId, user_id: requester },
    state,
  });
  return key;
};

describe('pre_gateway_dispatch', () => {
  it('is invoked with event, gateway and session_store', async () => {
    await say('hello');
    const call = engine.calls.find((c) => c.name === 'pre_gateway_dispatch')!;
    expect(Object.keys(call.payload)).toEqual(['event', 'gateway', 'session_store']);
    expect(call.payload.event).toMatchObject({
      text: 'hello',
      internal: false,
      source: { platform: 'local', chat_id: chatId, user_id: 'u1' },
    });
    expect(String(call.payload.gateway)).toBe('<hookgate gateway>');
    // A shell hook gets the three as strings under extra (§1.12); the event's is its JSON.
    const stdin = JSON.parse(renderShellPayload('pre_gateway_dispatch', call.payload, '/'));
    expect(stdin.extra).toEqual({
      event: expect.any(String),
      gateway: '<hookgate gateway>',
      session_store: '<hookgate session store>',
    });
    expect(JSON.parse(stdin.extra.event)).toMatchObject({ text: 'hello', source: { platform: 'local', chat_id: chatId } });
  });

  it('skip: no turn, no reply', async () => {
    engine.answers.pre_gateway_dispatch = () => ({ action: 'skip', reason: 'quiet hours' });
    await say('hello');
    expect(await gw.drainTurns()).toEqual([]);
    expect(await replies()).toEqual([]);
  });

  it('rewrite: the turn gets the new text; allow: unchanged', async () => {
    engine.answers.pre_gateway_dispatch = () => ({ action: 'rewrite', text: 'rewritten' });
    await say('original');
    engine.answers.pre_gateway_dispatch = () => ({ action: 'allow' });
    await say('as is');
    const turns = await gw.drainTurns();
    expect(turns.map((t) => t.kind === 'message' && t.event.text)).toEqual(['rewritten', 'as is']);
  });

  it('a rewrite into a slash command runs that command', async () => {
    engine.answers.pre_gateway_dispatch = () => ({ action: 'rewrite', text: '/help' });
    await say('what can you do');
    expect(await gw.drainTurns()).toEqual([]);
    expect((await replies())[0]).toMatch(/^Commands:/);
  });

  it('a failing invocation is a warning and processing goes on', async () => {
    engine.answers.pre_gateway_dispatch = () => {
      throw new Error('plugin exploded');
    };
    await say('still works');
    expect(await gw.drainTurns()).toHaveLength(1);
  });
});

describe('authorisation', () => {
  it('refuses senders not in HOOKGATE_ALLOWED_USERS with a clear reply, lets listed ones through', async () => {
    await setup({ HOOKGATE_ALLOWED_USERS: 'local:u1' });
    await say('from u2', 'u2');
    await say('from u1', 'u1');
    const turns = await gw.drainTurns();
    expect(turns.map((t) => t.kind === 'message' && t.event.source.user_id)).toEqual(['u1']);
    expect(await replies()).toEqual(['⛔ You are not allowed to use this bot (local:u2).']);
  });

  it("acknowledges without the gateway's reply when the platform API does not answer it (Slack's 3-second window)", async () => {
    gw?.plane.destroy();
    engine = recordingEngine();
    const asked: string[] = [];
    const hung = {
      send: (_target: unknown, text: string) => {
        asked.push(text);
        return new Promise<void>(() => {}); // the platform API never answers
      },
    };
    gw = gatewayHarness(aws, { HOOKGATE_ALLOWED_USERS: 'local:u1' }, engine, { replier: hung as never });
    // Answered (202) although the send it started never settles; before, the webhook waited on it.
    await say('from a stranger', 'u2');
    expect(asked).toEqual(['⛔ You are not allowed to use this bot (local:u2).']);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('stays silent when configured so', async () => {
    await setup({ HOOKGATE_ALLOWED_USERS: 'telegram:1', HOOKGATE_UNAUTHORISED_REPLY: 'silent' });
    await say('anyone?');
    expect(await gw.drainTurns()).toEqual([]);
    expect(await replies()).toEqual([]);
  });

  it('runs pre_gateway_dispatch before the check (a skip wins even for strangers)', async () => {
    await setup({ HOOKGATE_ALLOWED_USERS: 'local:u1' });
    engine.answers.pre_gateway_dispatch = () => ({ action: 'skip' });
    await say('stranger', 'u9');
    expect(await replies()).toEqual([]);
  });
});

describe('slash commands', () => {
  it('/new fires finalize, session:end, session:reset, on_session_reset in order, then replies', async () => {
    await say('first message'); // no session yet: the turn runtime creates it; make one here
    const key = `local:${chatId}`;
    const before = await gw.plane.sessions.resolve(key, {
      platform: 'local',
      chat_id: chatId,
      thread_id: '',
      user_id: 'u1',
      chat_type: 'dm',
    });
    await say('/new');
    const after = await gw.plane.sessions.current(key);
    expect(after!.session_id).not.toBe(before.session.session_id);
    expect(observed().map((c) => c.name)).toEqual(['on_session_finalize', 'session:end', 'session:reset', 'on_session_reset']);
    const [finalize, end, reset, onReset] = observed().map((c) => c.payload);
    const oldId = before.session.session_id;
    const newId = after!.session_id;
    expect(finalize).toEqual({
      session_id: oldId,
      platform: 'local',
      reason: 'new_session',
      old_session_id: oldId,
      new_session_id: newId,
    });
    expect(end).toEqual({ platform: 'local', user_id: 'u1', session_key: key });
    expect(reset).toEqual({ platform: 'local', user_id: 'u1', session_key: key });
    expect(onReset).toEqual({
      session_id: newId,
      platform: 'local',
      reason: 'new_session',
      old_session_id: oldId,
      new_session_id: newId,
    });
    expect(await replies()).toEqual(['✨ New session started.']);
    expect((await gw.drainTurns()).map((t) => t.kind === 'message' && t.event.text)).toEqual(['first message']);
  });

  it('/reset and /clear are aliases; command hooks see canonical and raw names', async () => {
    await say('/reset  now please ');
    await say('/CLEAR');
    const hooks = engine.calls.filter((c) => c.op === 'emitCollect');
    expect(hooks.map((c) => c.name)).toEqual(['command:new', 'command:new']);
    expect(hooks[0]!.payload).toEqual({
      platform: 'local',
      user_id: 'u1',
      command: 'new',
      raw_command: 'reset',
      args: 'now please',
      raw_args: 'now please',
    });
    expect(hooks[1]!.payload.raw_command).toBe('CLEAR');
    expect(await replies()).toEqual(['✨ New session started.', '✨ New session started.']);
  });

  it('the reset still replies when the hooks cannot be emitted', async () => {
    engine.failObserve = true;
    await say('/new');
    expect(await replies()).toEqual(['✨ New session started.']);
  });

  it('deny with the default message; allow does not end the scan', async () => {
    engine.collect['command:status'] = () => [{ decision: 'allow' }, 'ignored', { decision: ' DENY ' }];
    await say('/status');
    expect(await replies()).toEqual(['Command `/status` was blocked by a hook.']);
  });

  it('handled with and without a message', async () => {
    engine.collect['command:help'] = () => [{ decision: 'handled', message: 'custom help' }];
    await say('/help');
    engine.collect['command:help'] = () => [{ decision: 'handled' }];
    await say('/help');
    expect(await replies()).toEqual(['custom help']);
  });

  it('rewrite re-resolves the command once, without firing hooks again', async () => {
    engine.collect['command:status'] = () => [{ decision: 'rewrite', command_name: '//help', raw_args: '' }];
    engine.collect['command:help'] = () => [{ decision: 'deny' }];
    await say('/status');
    expect((await replies())[0]).toMatch(/^Commands:/);
    expect(engine.calls.filter((c) => c.op === 'emitCollect').map((c) => c.name)).toEqual(['command:status']);
  });

  it('rewrite to a command the gateway does not know sends the text to the agent', async () => {
    engine.collect['command:help'] = () => [{ decision: 'rewrite', command_name: 'summarise', raw_args: ' last week ' }];
    await say('/help');
    const turns = await gw.drainTurns();
    expect(turns.map((t) => t.kind === 'message' && t.event.text)).toEqual(['/summarise last week']);
  });

  it('/model names the model and says it cannot switch it; command:model hooks see it first', async () => {
    await say('/model');
    await say('/model gpt-4o');
    expect(engine.calls.filter((c) => c.name === 'command:model')).toHaveLength(2);
    const [bare, named] = await replies();
    expect(bare).toBe('Model: the built-in stand-in model (HOOKGATE_MODEL_BASE_URL is not set)');
    expect(named).toContain('/model cannot switch it per chat');
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('unknown slash commands go to the agent without command hooks', async () => {
    await say('/weather paris');
    expect(engine.calls.some((c) => c.op === 'emitCollect')).toBe(false);
    expect(await gw.drainTurns()).toHaveLength(1);
  });

  /** A turn of `userId` started in this test's chat (as the turn runtime notes it) and not ended. */
  const startedTurn = async (userId: string | null, turnId = `turn-${chatId}`) => {
    const key = `local:${chatId}`;
    const { session } = await gw.plane.sessions.resolve(
      key,
      { platform: 'local', chat_id: chatId, thread_id: '', user_id: userId, chat_type: 'group' },
      { now: new Date(Date.now() - 5000) },
    );
    await gw.plane.sessions.noteTurnStarted(key, session.session_id, {
      turn_id: turnId,
      platform: 'local',
      user_id: userId,
      started_at: new Date(Date.now() - 1000).toISOString(),
    });
    return { key, session };
  };

  it('/stop asks the running turn to stop, when its requester asks', async () => {
    const { key } = await startedTurn('u1');
    const started = new Date(Date.now() - 1000);
    await say('/stop');
    expect(await gw.plane.sessions.stopRequested(key, started, `turn-${chatId}`)).toBe(true);
    // Only that turn: another turn of the session is not stopped by it.
    expect(await gw.plane.sessions.stopRequested(key, started, 'another-turn')).toBe(false);
    expect(await replies()).toEqual(['⏹ Stopping the current turn.']);
  });

  it('/stop from another user of the chat is refused and stops nothing; an approver may', async () => {
    await setup({ HOOKGATE_APPROVERS: 'local:ops' });
    const { key } = await startedTurn('alice');
    const started = new Date(Date.now() - 1000);
    await say('/stop', 'mallory');
    expect(await gw.plane.sessions.stopRequested(key, started, `turn-${chatId}`)).toBe(false);
    await say('/stop', 'ops');
    expect(await gw.plane.sessions.stopRequested(key, started, `turn-${chatId}`)).toBe(true);
    expect(await replies()).toEqual([
      '⛔ Only the user who asked for the running turn, or an approver, can stop it. Nothing was changed.',
      '⏹ Stopping the current turn.',
    ]);
  });

  it('/stop with no turn running says so and records nothing', async () => {
    await say('/stop');
    const { key, session } = await startedTurn('u1');
    await gw.plane.sessions.recordTurn(key, session.session_id, 'turn_ended'); // that turn ended
    await say('/stop');
    expect(await gw.plane.sessions.stopRequested(key, new Date(0))).toBe(false);
    expect(await replies()).toEqual(['Nothing is running in this conversation.', 'Nothing is running in this conversation.']);
  });

  it('/stop of a turn whose platform gave no user id: an approver only', async () => {
    await setup({ HOOKGATE_APPROVERS: 'local:ops' });
    await startedTurn(null);
    await say('/stop', 'u1');
    await say('/stop', 'ops');
    expect(await replies()).toEqual([
      expect.stringMatching(/^⛔ Only the user who asked for the running turn/),
      '⏹ Stopping the current turn.',
    ]);
  });

  it('/status shows a pending command to its requester and approvers only', async () => {
    await setup({ HOOKGATE_APPROVERS: 'local:ops' });
    const key = await putPendingApproval('rm -rf /srv/\u202e\nsecret-project', 'recursive_delete', 'alice');
    await gw.plane.sessions.resolve(key, {
      platform: 'local',
      chat_id: chatId,
      thread_id: '',
      user_id: 'alice',
      chat_type: 'group',
    });
    for (const user of ['alice', 'mallory', 'ops']) await say('/status', user);
    const [alice, mallory, ops] = (await replies()).map((r) => r.split('\n').find((l) => l.startsWith('Pending approval:')));
    expect(alice).toBe('Pending approval: rm -rf /srv/\\u202e\\nsecret-project');
    expect(ops).toBe(alice);
    expect(mallory).toBe('Pending approval: a command of local:alice (only they or an approver see it)');
  });

  it("/status and /approve read the approval item alone, never a big suspended state's parts", async () => {
    // ≈ 700 KB of random base64: gzipped, still past one item, so the state is kept in parts. The
    // gateway's role has no Query on APPROVAL# (infra/lib/table-access.ts): reading them would be refused.
    const state = { messages: [{ role: 'tool', content: randomBytes(500_000).toString('base64') }] };
    const key = await putPendingApproval('rm -rf /srv/big', 'recursive_delete', 'u1', state);
    await gw.plane.sessions.resolve(key, { platform: 'local', chat_id: chatId, thread_id: '', user_id: 'u1', chat_type: 'dm' });
    await say('/status');
    await say('/approve');
    const [status, approved] = await replies();
    expect(status).toContain('Pending approval: rm -rf /srv/big');
    expect(approved).toMatch(/^✅/);
    expect((await gw.plane.approvals.get(`ap-${chatId}`))?.state).toEqual(state);
  });

  it('/status reports the session', async () => {
    await say('/status');
    const key = `local:${chatId}`;
    const { session } = await gw.plane.sessions.resolve(key, {
      platform: 'local',
      chat_id: chatId,
      thread_id: '',
      user_id: 'u1',
      chat_type: 'dm',
    });
    await say('/status');
    const [none, some] = await replies();
    expect(none).toMatch(/No session yet/);
    expect(some).toContain(`Session: ${session.session_id}`);
  });

  it('/approve session answers the pending approval and enqueues the resume; a second answer is refused', async () => {
    const key = await putPendingApproval('rm -rf build', 'rm');
    await say('/approve session');
    await say('/deny');
    expect(await replies()).toEqual(['✅ Approved for this session.', 'There is no pending approval in this conversation.']);
    const turns = await gw.drainTurns();
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ kind: 'approval', approval_id: `ap-${chatId}`, choice: 'session', session_key: key });
    expect((await gw.plane.approvals.get(`ap-${chatId}`))?.choice).toBe('session');
  });

  it('/approve whose resume cannot be enqueued answers 503 and leaves the approval pending, so the retry resumes it', async () => {
    const key = await putPendingApproval('sudo reboot', 'sudo');
    const queue = gw.plane.turnQueue;
    const send = queue.send.bind(queue);
    let failures = 1;
    queue.send = async (...args: Parameters<typeof send>) => {
      if (failures-- > 0) throw Object.assign(new Error('queue unreachable'), { name: 'ServiceUnavailable' });
      return send(...args);
    };
    try {
      const failed = await gw.request('/webhooks/local', {
        body: JSON.stringify({ chat_id: chatId, user_id: 'u1', text: '/approve' }),
      });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect((await gw.plane.approvals.pending(key))?.approval_id).toBe(`ap-${chatId}`);
      await say('/approve');
    } finally {
      queue.send = send;
    }
    expect(await replies()).toContain('✅ Approved once.');
    const turns = await gw.drainTurns();
    expect(turns).toEqual([expect.objectContaining({ kind: 'approval', approval_id: `ap-${chatId}`, choice: 'once' })]);
    expect((await gw.plane.approvals.get(`ap-${chatId}`))?.choice).toBe('once');
  });

  it('/approve with a bad scope explains the usage', async () => {
    await say('/approve forever');
    expect(await replies()).toEqual(['Usage: /approve [session|always|always global]']);
  });

  it('an approval belongs to the user who asked: another user in the chat is refused and nothing changes', async () => {
    const key = await putPendingApproval('rm -rf *', 'recursive_delete', 'alice');
    await say('/approve always', 'mallory');
    await say('/deny', 'mallory');
    const [approve, deny] = await replies();
    expect(approve).toMatch(/^⛔ Only the user who asked for this command, or an approver, can answer this approval/);
    expect(deny).toBe(approve);
    expect(await gw.drainTurns()).toEqual([]);
    expect((await gw.plane.approvals.pending(key))?.approval_id).toBe(`ap-${chatId}`);
    expect((await gw.plane.approvals.get(`ap-${chatId}`))?.choice).toBeUndefined();
    // The requester can still answer; "always global" is for approvers only.
    await say('/approve always global', 'alice');
    expect((await replies()).at(-1)).toMatch(/^⛔ Only an approver/);
    await say('/approve always', 'alice');
    expect((await replies()).at(-1)).toBe('✅ Approved always in this chat.');
    expect(await gw.drainTurns()).toEqual([
      expect.objectContaining({ kind: 'approval', choice: 'always', answered_by: 'local:alice' }),
    ]);
    expect(await gw.plane.approvals.get(`ap-${chatId}`)).toMatchObject({ choice: 'always', answered_by: 'local:alice' });
  });

  it("an operator in HOOKGATE_APPROVERS may answer anyone's approval and grant it for every chat", async () => {
    await setup({ HOOKGATE_APPROVERS: 'local:root,telegram:1' });
    await putPendingApproval('sudo reboot', 'sudo', 'alice');
    await say('/approve always global', 'root');
    expect(await replies()).toEqual(['✅ Approved always, in every chat.']);
    expect(await gw.drainTurns()).toEqual([
      expect.objectContaining({ kind: 'approval', choice: 'always', global: true, answered_by: 'local:root' }),
    ]);
    expect(await gw.plane.approvals.get(`ap-${chatId}`)).toMatchObject({
      choice: 'always',
      global: true,
      answered_by: 'local:root',
    });
  });
});

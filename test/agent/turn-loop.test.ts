import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { replayTurn } from '../../src/agent/trace/replay-turn.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { until } from '../support/until.ts';
import { startTurnHarness, type HookCall, type TurnHarness } from './support/turn-harness.ts';
import { CONTRACT_KEY_ORDER } from '../hooks/support/contract-key-order.ts';

const TAG = 'telemetry_schema_version';
/** What a plugin callback of `hook` gets: the contract's keys in order, then the telemetry tag. */
const contractKeys = (hook: string): string[] => [...CONTRACT_KEY_ORDER[hook]!, TAG];
/** Keys the spec passes only at some call sites of a hook (the turn runtime is not one of them). */
const SITE_DEPENDENT_KEYS: Record<string, readonly string[]> = { on_session_finalize: ['old_session_id', 'new_session_id'] };
const keysOf = (calls: HookCall[], hook: string) => calls.filter((c) => c.hook === hook).map((c) => c.keys);
const only = (calls: HookCall[], hook: string) => {
  const found = calls.filter((c) => c.hook === hook);
  expect(found, hook).toHaveLength(1);
  return found[0]!;
};

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.decide({});
  await h.takeCalls();
  h.replies.length = 0;
});

describe('a plain turn', () => {
  it('fires every hook at its call site, in order, with the spec kwargs', async () => {
    h.model.script({ content: 'hello back' });
    const result = await h.say('hello', 'plain');
    expect(result.outcome).toBe('completed');
    expect(h.replies.map((r) => r.text)).toEqual(['hello back']);
    const calls = await h.takeCalls();
    // The gateway's agent:start and agent:end around the agent run, whose first and last hooks are the session's (§1.13, §2.4).
    expect(calls.filter((c) => c.hook !== 'agent:step').map((c) => c.hook)).toEqual([
      'session:start',
      'agent:start',
      'on_session_start',
      'pre_llm_call',
      'pre_api_request',
      'post_api_request',
      'transform_llm_output',
      'post_llm_call',
      'on_session_end',
      'agent:end',
    ]);
    expect(only(calls, 'session:start').keys).toEqual(['platform', 'user_id', 'session_id', 'session_key']);
    expect(only(calls, 'on_session_start').keys).toEqual(contractKeys('on_session_start'));
    const start = only(calls, 'agent:start');
    expect(start.keys).toEqual(['platform', 'user_id', 'chat_id', 'thread_id', 'chat_type', 'session_id', 'message']);
    expect(start.kwargs).toMatchObject({
      platform: 'local',
      user_id: 'u1',
      chat_id: 'plain',
      thread_id: '',
      chat_type: 'dm',
      message: 'hello',
    });
    const pre = only(calls, 'pre_llm_call');
    expect(pre.keys).toEqual(contractKeys('pre_llm_call'));
    expect(pre.kwargs).toMatchObject({
      turn_id: result.turn_id,
      user_message: 'hello',
      is_first_turn: true,
      model: 'fake-model',
      platform: 'local',
      sender_id: 'u1',
    });
    expect(pre.kwargs.conversation_history).toEqual([{ role: 'user', content: 'hello' }]);
    expect(only(calls, 'pre_api_request').keys).toEqual(contractKeys('pre_api_request'));
    const post = only(calls, 'post_api_request');
    expect(post.keys).toEqual(contractKeys('post_api_request'));
    expect(post.kwargs).toMatchObject({
      api_request_id: `${result.turn_id}:api:1`,
      api_call_count: 1,
      base_url: h.model.baseUrl,
      assistant_content_chars: 10,
    });
    expect(only(calls, 'transform_llm_output').keys).toEqual(contractKeys('transform_llm_output'));
    const postLlm = only(calls, 'post_llm_call');
    expect(postLlm.keys).toEqual(contractKeys('post_llm_call'));
    expect(postLlm.kwargs.conversation_history).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hello back' },
    ]);
    const end = only(calls, 'agent:end');
    expect(end.keys).toEqual([...start.keys, 'response']);
    expect(end.kwargs.response).toBe('hello back');
    const sessionEnd = only(calls, 'on_session_end');
    expect(sessionEnd.keys).toEqual(contractKeys('on_session_end'));
    expect(sessionEnd.kwargs).toMatchObject({ completed: true, interrupted: false, turn_id: result.turn_id });
    const step = only(calls, 'agent:step');
    expect(step.keys).toEqual(['platform', 'user_id', 'session_id', 'iteration', 'tool_names', 'tools']);
    expect(step.kwargs).toMatchObject({ iteration: 1, tool_names: [], tools: [] });
  });

  it('does not start the session again on the next turn, and passes the history', async () => {
    h.model.script({ content: 'one' }, { content: 'two' });
    await h.say('first', 'again');
    await h.takeCalls();
    await h.say('second', 'again');
    const calls = await h.takeCalls();
    expect(calls.map((c) => c.hook)).not.toContain('on_session_start');
    expect(calls.map((c) => c.hook)).not.toContain('session:start');
    const pre = only(calls, 'pre_llm_call');
    expect(pre.kwargs.is_first_turn).toBe(false);
    expect(pre.kwargs.conversation_history.map((m: { content: string }) => m.content)).toEqual(['first', 'one', 'second']);
    expect(
      h.model.requests
        .at(-1)!
        .body.messages.map((m) => m.content)
        .slice(1),
    ).toEqual(['first', 'one', 'second']);
  });

  it('agent:start and agent:end carry the first 500 code points', async () => {
    const long = '😀'.repeat(600);
    h.model.script({ content: long });
    await h.say(long, 'long');
    const calls = await h.takeCalls();
    expect([...only(calls, 'agent:start').kwargs.message]).toHaveLength(500);
    expect([...only(calls, 'agent:end').kwargs.response]).toHaveLength(500);
  });
});

describe('idle expiry (§1.13 finalize sites)', () => {
  it('a conversation idle past sessionIdleSeconds finalizes the old session (session_expired) and starts a new one', async () => {
    h.model.script({ content: 'first' }, { content: 'second' });
    const first = await h.say('hello', 'idle-chat');
    const firstSession = only(await h.takeCalls(), 'on_session_start').kwargs.session_id;
    const t0 = Date.now();
    h.deps.sessionIdleSeconds = 60;
    h.deps.now = () => new Date(t0 + 61_000);
    try {
      await h.say('back again', 'idle-chat');
    } finally {
      delete h.deps.sessionIdleSeconds;
      delete h.deps.now;
    }
    const calls = await h.takeCalls();
    const finalize = only(calls, 'on_session_finalize');
    expect(finalize.keys).toEqual(['session_id', 'platform', 'reason', TAG]);
    expect(finalize.kwargs).toMatchObject({ session_id: firstSession, platform: 'local', reason: 'session_expired' });
    const newSession = only(calls, 'on_session_start').kwargs.session_id;
    expect(newSession).not.toBe(firstSession);
    expect(only(calls, 'session:start').kwargs.session_id).toBe(newSession);
    expect(calls.map((c) => c.hook).indexOf('on_session_finalize')).toBeLessThan(
      calls.map((c) => c.hook).indexOf('session:start'),
    );
    expect(first.outcome).toBe('completed');
  });

  it('reads HOOKGATE_SESSION_IDLE_SECONDS, rejecting a malformed value by name', async () => {
    const { loadDeploymentConfig } = await import('../../src/config/deployment-config.ts');
    expect(loadDeploymentConfig({ HOOKGATE_SESSION_IDLE_SECONDS: '3600' }, { runtime: 'local' }).sessionIdleSeconds).toBe(3600);
    expect(loadDeploymentConfig({}, { runtime: 'local' }).sessionIdleSeconds).toBeUndefined();
    expect(() => loadDeploymentConfig({ HOOKGATE_SESSION_IDLE_SECONDS: 'an hour' }, { runtime: 'local' })).toThrow(
      /HOOKGATE_SESSION_IDLE_SECONDS/,
    );
  });
});

describe('pre_llm_call context', () => {
  it('goes only into the API copy of the user message, on every request of the turn, never stored', async () => {
    await h.decide({ pre_llm_call: { context: 'CTX: user prefers metric' } });
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'echo hi' } }] }, { content: 'done' });
    const before = h.model.requests.length;
    const result = await h.say('what is up', 'ctx');
    const sent = h.model.requests.slice(before);
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.body.messages[0]!.role).toBe('system');
      expect(request.body.messages[0]!.content).not.toContain('CTX');
      expect(request.body.messages[1]).toEqual({ role: 'user', content: 'what is up\n\nCTX: user prefers metric' });
    }
    const calls = await h.takeCalls();
    expect(calls.filter((c) => c.hook === 'pre_llm_call')).toHaveLength(1);
    const session = await h.plane.sessions.current('local:ctx');
    const stored = await h.plane.transcripts.load(session!.session_id);
    expect(stored[0]).toEqual({ role: 'user', content: 'what is up' });
    expect(JSON.stringify(stored)).not.toContain('CTX');
    expect(only(calls, 'post_llm_call').kwargs.conversation_history[0].content).toBe('what is up');
    expect(result.outcome).toBe('completed');
  });

  it('keeps the system prompt byte-stable across turns', async () => {
    h.model.script({ content: 'a' }, { content: 'b' });
    await h.decide({ pre_llm_call: 'context one' });
    await h.say('x', 'stable');
    await h.decide({ pre_llm_call: 'context two' });
    await h.say('y', 'stable');
    const [a, b] = h.model.requests.slice(-2);
    expect(a!.body.messages[0]).toEqual(b!.body.messages[0]);
    expect(b!.body.messages.at(-1)!.content).toBe('y\n\ncontext two');
    expect(b!.body.messages[1]!.content).toBe('x');
  });
});

describe('tool calls', () => {
  it('a pre_tool_call block becomes the error result, post_tool_call says blocked, no transform_tool_result', async () => {
    await h.decide({
      pre_tool_call: { terminal: { action: 'block', message: 'Blocked by policy' } },
      transform_tool_result: 'SHOULD NOT APPLY',
    });
    h.model.script(
      { tool_calls: [{ name: 'terminal', arguments: { command: 'touch blocked-marker' }, id: 'call_b' }] },
      { content: 'ok' },
    );
    const result = await h.say('run it', 'block');
    const toolMessage = h.model.requests.at(-1)!.body.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_b', content: '{"error": "Blocked by policy"}' });
    const calls = await h.takeCalls();
    const pre = only(calls, 'pre_tool_call');
    expect(pre.keys).toEqual(contractKeys('pre_tool_call'));
    expect(pre.kwargs).toMatchObject({
      tool_name: 'terminal',
      args: { command: 'touch blocked-marker' },
      tool_call_id: 'call_b',
      turn_id: result.turn_id,
      api_request_id: `${result.turn_id}:api:1`,
      middleware_trace: [],
    });
    const post = only(calls, 'post_tool_call');
    expect(post.keys).toEqual(contractKeys('post_tool_call'));
    expect(post.kwargs).toMatchObject({
      result: '{"error": "Blocked by policy"}',
      status: 'blocked',
      error_type: 'plugin_block',
      error_message: 'Blocked by policy',
      duration_ms: 0,
    });
    expect(calls.map((c) => c.hook)).not.toContain('transform_tool_result');
    expect(calls.map((c) => c.hook)).not.toContain('transform_terminal_output');
    const step = calls.find((c) => c.hook === 'agent:step' && c.kwargs.iteration === 1)!;
    expect(step.kwargs.tool_names).toEqual(['terminal']);
  });

  it('runs the terminal: transform_terminal_output before truncation, ANSI strip and redaction; post_tool_call then transform_tool_result', async () => {
    await h.decide({ transform_terminal_output: 'REPLACED \u001b[31mred\u001b[0m AKIAABCDEFGHIJKLMNOP' });
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'echo original; exit 3' } }] }, { content: 'ok' });
    await h.say('go', 'term');
    const toolMessage = h.model.requests.at(-1)!.body.messages.at(-1)!;
    expect(JSON.parse(toolMessage.content!)).toEqual({ output: 'REPLACED red ***', exit_code: 3, error: null });
    const calls = await h.takeCalls();
    const hooks = calls.map((c) => c.hook).filter((n) => n.includes('tool') || n.includes('terminal'));
    expect(hooks).toEqual(['pre_tool_call', 'transform_terminal_output', 'post_tool_call', 'transform_tool_result']);
    const term = only(calls, 'transform_terminal_output');
    expect(term.keys).toEqual(contractKeys('transform_terminal_output'));
    expect(term.kwargs).toMatchObject({
      command: 'echo original; exit 3',
      output: 'original\n',
      returncode: 3,
      env_type: 'local',
    });
    const transform = only(calls, 'transform_tool_result');
    expect(transform.keys).toEqual(contractKeys('transform_tool_result'));
    expect(transform.kwargs.duration_ms).toBe(only(calls, 'post_tool_call').kwargs.duration_ms);
    expect(Number.isInteger(transform.kwargs.duration_ms)).toBe(true);
  });

  it('redacts secrets and strips ANSI in real command output, and truncates past 50 KB with a marker', async () => {
    h.model.script(
      {
        tool_calls: [
          {
            name: 'terminal',
            arguments: {
              command:
                "printf '\\033[1mbold\\033[0m sk-abcdefghijklmnopqrstuvwx ghp_abcdefghijklmnopqrstuvwxyz0123 xoxb-1234567890-abc Authorization: Bearer abc.def.ghi123'",
            },
          },
        ],
      },
      { tool_calls: [{ name: 'terminal', arguments: { command: "head -c 70000 /dev/zero | tr '\\0' x" } }] },
      { content: 'ok' },
    );
    await h.say('go', 'redact');
    const messages = h.model.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool');
    const first = JSON.parse(messages[0]!.content!);
    expect(first.output).toBe('bold *** *** *** Authorization: Bearer ***');
    const second = JSON.parse(messages[1]!.content!);
    expect(second.output.length).toBeLessThan(52 * 1024);
    expect(second.output).toContain('[output truncated:');
  });

  it('transform_tool_result: the first string, even "", replaces the result; post_tool_call sees the original', async () => {
    await h.decide({ transform_tool_result: '' });
    h.model.script({ tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { content: 'ok' });
    await h.say('read it', 'transform');
    expect(h.model.requests.at(-1)!.body.messages.at(-1)!.content).toBe('');
    const calls = await h.takeCalls();
    const post = only(calls, 'post_tool_call');
    expect(post.kwargs.status).toBe('error');
    expect(post.kwargs.error_type).toBe('tool_error');
    expect(post.kwargs.error_message).toContain('missing.txt');
    expect(JSON.parse(post.kwargs.result).error).toContain('missing.txt');
  });

  it('a non-string transform result is ignored; bad arguments become {}; unknown tools are error results', async () => {
    await h.decide({ transform_tool_result: { not: 'a string' } });
    h.model.script({ tool_calls: [{ name: 'no_such_tool', arguments: '[1, 2]' }] }, { content: 'ok' });
    await h.say('x', 'unknown');
    expect(h.model.requests.at(-1)!.body.messages.at(-1)!.content).toBe('{"error": "Unknown tool: no_such_tool"}');
    const calls = await h.takeCalls();
    expect(only(calls, 'pre_tool_call').kwargs.args).toEqual({});
  });

  it('write_file, patch and read_file work in the session workspace', async () => {
    h.model.script(
      { tool_calls: [{ name: 'write_file', arguments: { path: 'notes/a.txt', content: 'hello world' } }] },
      { tool_calls: [{ name: 'patch', arguments: { path: 'notes/a.txt', old_string: 'world', new_string: 'there' } }] },
      { tool_calls: [{ name: 'read_file', arguments: { path: 'notes/a.txt' } }] },
      { content: 'ok' },
    );
    await h.say('files', 'files');
    const tools = h.model.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content!));
    expect(tools[0]).toEqual({ path: 'notes/a.txt', bytes_written: 11 });
    expect(tools[1]).toEqual({ path: 'notes/a.txt', replacements: 1 });
    expect(tools[2]).toMatchObject({ content: 'hello there' });
  });
});

describe('the final response', () => {
  it('transform_llm_output: the first non-empty string replaces what is delivered and what post_llm_call sees', async () => {
    await h.decide({ transform_llm_output: 'rewritten' });
    h.model.script({ content: 'original' });
    await h.say('q', 'tllm');
    expect(h.replies.at(-1)!.text).toBe('rewritten');
    const calls = await h.takeCalls();
    expect(only(calls, 'post_llm_call').kwargs.assistant_response).toBe('rewritten');
    expect(only(calls, 'agent:end').kwargs.response).toBe('rewritten');
  });

  it('an empty transform result leaves the response unchanged', async () => {
    await h.decide({ transform_llm_output: '' });
    h.model.script({ content: 'original' });
    await h.say('q', 'tllm2');
    expect(h.replies.at(-1)!.text).toBe('original');
  });

  it('max_iterations ends the turn without transform_llm_output or post_llm_call', async () => {
    h.deps.maxIterations = 2;
    try {
      h.model.script(
        { tool_calls: [{ name: 'terminal', arguments: { command: 'true' } }] },
        { tool_calls: [{ name: 'terminal', arguments: { command: 'true' } }] },
      );
      const result = await h.say('loop', 'maxit');
      expect(result.outcome).toBe('exhausted');
    } finally {
      delete h.deps.maxIterations;
    }
    const calls = await h.takeCalls();
    expect(calls.map((c) => c.hook)).not.toContain('transform_llm_output');
    expect(calls.map((c) => c.hook)).not.toContain('post_llm_call');
    expect(only(calls, 'on_session_end').kwargs).toMatchObject({ completed: false, interrupted: false });
    expect(h.model.remaining()).toBe(0);
  });

  it('a turn stopped by /new ends quietly: no "⏹ Stopped." into the chat\'s new session', async () => {
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 1' } }] }, { content: 'never' });
    const before = h.model.requests.length;
    const replies = h.replies.length;
    const running = h.say('slow', 'reset-mid-turn');
    await until(() => h.model.requests.length > before, 'the first model request');
    // What /new does to a running turn (reset-session.ts): ask it to stop, then start the new session.
    await h.plane.sessions.requestStop('local:reset-mid-turn');
    await h.plane.sessions.rotate('local:reset-mid-turn', {
      platform: 'local',
      chat_id: 'reset-mid-turn',
      thread_id: '',
      user_id: 'u1',
      chat_type: 'dm',
    });
    expect((await running).outcome).toBe('interrupted');
    expect(h.replies.slice(replies).map((r) => r.text)).not.toContain('⏹ Stopped.');
    expect(only(await h.takeCalls(), 'on_session_end').kwargs).toMatchObject({ interrupted: true });
    await h.say('drain', 'reset-drain');
    expect(h.model.remaining()).toBe(0);
  });

  it('/stop interrupts between iterations: no transform, on_session_end interrupted', async () => {
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 1' } }] }, { content: 'never' });
    const before = h.model.requests.length;
    const running = h.say('slow', 'stop');
    await until(() => h.model.requests.length > before, 'the first model request');
    await h.plane.sessions.requestStop('local:stop');
    const result = await running;
    expect(result.outcome).toBe('interrupted');
    expect(h.model.requests.length).toBe(before + 1);
    expect(h.model.remaining()).toBe(1);
    const calls = await h.takeCalls();
    expect(calls.map((c) => c.hook)).not.toContain('transform_llm_output');
    expect(only(calls, 'on_session_end').kwargs).toMatchObject({ completed: false, interrupted: true });
    expect(h.replies.at(-1)!.text).toBe('⏹ Stopped.');
    // The unused scripted reply answers a throwaway turn, so later tests start clean.
    await h.say('drain', 'stop-drain');
    expect(h.model.remaining()).toBe(0);
  });

  describe('the /stop read of a step', () => {
    const reads = () => vi.spyOn(h.plane.sessions, 'stopRequested');
    afterAll(() => {
      delete h.deps.stopReadReuseMs;
      vi.restoreAllMocks();
    });

    it('starts with its tools, and a short step makes no other: a /stop sent while the model answered is seen after it', async () => {
      h.deps.stopReadReuseMs = 60_000; // every step is short
      const spy = reads();
      h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'true' } }], delayMs: 300 }, { content: 'never' });
      const before = h.model.requests.length;
      const running = h.say('quick', 'stop-early');
      await until(() => h.model.requests.length > before, 'the first model request');
      await h.plane.sessions.requestStop('local:stop-early');
      expect((await running).outcome).toBe('interrupted');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(h.model.requests.length).toBe(before + 1);
      spy.mockRestore();
      await h.say('drain', 'stop-early-drain');
      expect(h.model.remaining()).toBe(0);
    });

    it('a /stop sent during a short step, after its read, is seen at the next check', async () => {
      h.deps.stopReadReuseMs = 60_000;
      // Whether the step's command had finished (its workspace holds the file it writes last) when each read began.
      const stepDone = () =>
        readdirSync(join(h.home.path, 'workspaces'), { recursive: true }).some((f) => String(f).endsWith('step-done'));
      const doneAtRead: boolean[] = [];
      const read = h.plane.sessions.stopRequested.bind(h.plane.sessions);
      const spy = vi.spyOn(h.plane.sessions, 'stopRequested').mockImplementation((...args) => {
        doneAtRead.push(stepDone());
        return read(...args);
      });
      h.model.script(
        { tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 0.5 && touch step-done' } }] },
        { tool_calls: [{ name: 'terminal', arguments: { command: 'true' } }] },
        { content: 'never' },
      );
      const before = h.model.requests.length;
      const running = h.say('late stop', 'stop-in-step');
      await until(() => spy.mock.results.length > 0, 'the step’s /stop read');
      await spy.mock.results[0]!.value;
      await h.plane.sessions.requestStop('local:stop-in-step');
      expect((await running).outcome).toBe('interrupted');
      expect(doneAtRead).toEqual([false, true]);
      expect(h.model.requests.length).toBe(before + 2);
      spy.mockRestore();
      await h.say('drain', 'stop-in-step-drain');
      expect(h.model.remaining()).toBe(0);
    });

    it('is made again after a step longer than the reuse window', async () => {
      h.deps.stopReadReuseMs = 0;
      const spy = reads();
      h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'true' } }] }, { content: 'done' });
      expect((await h.say('twice', 'stop-late')).outcome).toBe('completed');
      expect(spy).toHaveBeenCalledTimes(2);
      spy.mockRestore();
    });
  });
});

describe('model requests', () => {
  it('retries a 503 with the same api_request_id, firing api_request_error with the spec fields', async () => {
    h.model.script({ status: 503 }, { raw: '{"not":"a completion"}' }, { content: 'finally' });
    const result = await h.say('retry', 'retry');
    expect(h.replies.at(-1)!.text).toBe('finally');
    const calls = await h.takeCalls();
    const pre = calls.filter((c) => c.hook === 'pre_api_request');
    expect(pre.map((c) => c.kwargs.api_request_id)).toEqual(Array(3).fill(`${result.turn_id}:api:1`));
    const errors = calls.filter((c) => c.hook === 'api_request_error');
    expect(errors.map((c) => c.keys)).toEqual(Array(2).fill(contractKeys('api_request_error')));
    expect(errors.map((c) => [c.kwargs.status_code, c.kwargs.retry_count, c.kwargs.retryable, c.kwargs.reason])).toEqual([
      [503, 0, true, 'server_error'],
      [200, 1, true, 'invalid_response'],
    ]);
    expect(errors[0]!.kwargs.error).toMatchObject({ type: 'HTTPError' });
    expect(calls.filter((c) => c.hook === 'post_api_request')).toHaveLength(1);
    expect(h.model.requests.at(-1)!.headers.authorization).toBe('Bearer test-key');
  });

  it('gives up after the retries and tells the user; on_session_end still fires', async () => {
    h.model.script({ status: 429 }, { status: 429 }, { status: 429 });
    const result = await h.say('busy', 'giveup');
    expect(result.outcome).toBe('failed');
    expect(h.replies.at(-1)!.text).toContain('could not be reached');
    const calls = await h.takeCalls();
    expect(calls.filter((c) => c.hook === 'api_request_error').map((c) => c.kwargs.reason)).toEqual([
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
    expect(only(calls, 'on_session_end').kwargs).toMatchObject({ completed: false, interrupted: false });
  });
});

describe('a turn that fails after its loop', () => {
  it('fires on_session_end once as it unwinds (§1.13: whatever the outcome), and no agent:end', async () => {
    h.model.script({ content: 'answered' });
    const append = vi.spyOn(h.deps.transcripts, 'append').mockRejectedValueOnce(new Error('table unreachable'));
    await expect(h.say('store down', 'unwind')).rejects.toThrow('the turn failed'); // handed back to SQS to be tried again
    append.mockRestore();
    const hooks = (await h.takeCalls()).map((c) => c.hook);
    expect(hooks.filter((hook) => hook === 'on_session_end')).toHaveLength(1);
    expect(hooks).not.toContain('agent:end');
    expect(hooks.at(-1)).toBe('on_session_end');
  });
});

describe('model requests that cannot succeed', () => {
  it('a 400 is not retried: one attempt, api_request_error with retryable false', async () => {
    h.model.script({ status: 400, body: '{"error":{"message":"bad request"}}' });
    const before = h.model.requests.length;
    const result = await h.say('bad', 'bad-request');
    expect(result.outcome).toBe('failed');
    expect(h.model.requests.length - before).toBe(1);
    const calls = await h.takeCalls();
    const error = calls.find((c) => c.hook === 'api_request_error')!;
    expect(error.kwargs).toMatchObject({
      status_code: 400,
      retryable: false,
      reason: 'client_error',
      retry_count: 0,
      max_retries: 2,
    });
    expect(error.kwargs.request.body.messages.at(-1)).toEqual({ role: 'user', content: 'bad' });
  });
});

describe('delegation', () => {
  it('runs children side by side; subagent_start per child, then subagent_stop per child with role, status, summary, duration', async () => {
    h.model.script(
      {
        tool_calls: [
          { name: 'delegate_task', arguments: { tasks: [{ goal: 'task a' }, { goal: 'task b', role: 'orchestrator' }] } },
        ],
      },
      { content: 'child done' },
      { content: 'child done' },
      { content: 'parent done' },
    );
    const result = await h.say('delegate', 'deleg');
    expect(h.replies.at(-1)!.text).toBe('parent done');
    const calls = await h.takeCalls();
    const sub = calls.filter((c) => c.hook.startsWith('subagent_')).map((c) => c.hook);
    expect(sub).toEqual(['subagent_start', 'subagent_start', 'subagent_stop', 'subagent_stop']);
    expect(keysOf(calls, 'subagent_start')[0]).toEqual(contractKeys('subagent_start'));
    const starts = calls.filter((c) => c.hook === 'subagent_start');
    expect(
      starts.map((c) => [c.kwargs.child_goal, c.kwargs.child_role, c.kwargs.parent_turn_id, c.kwargs.parent_subagent_id]),
    ).toEqual([
      ['task a', 'leaf', result.turn_id, null],
      ['task b', 'orchestrator', result.turn_id, null],
    ]);
    const stops = calls.filter((c) => c.hook === 'subagent_stop');
    expect(stops[0]!.keys).toEqual(contractKeys('subagent_stop'));
    expect(
      stops.map((c) => [c.kwargs.child_session_id, c.kwargs.child_role, c.kwargs.child_status, c.kwargs.child_summary]),
    ).toEqual([
      [starts[0]!.kwargs.child_session_id, 'leaf', 'completed', 'child done'],
      [starts[1]!.kwargs.child_session_id, 'orchestrator', 'completed', 'child done'],
    ]);
    expect(stops.every((c) => Number.isInteger(c.kwargs.duration_ms) && c.kwargs.duration_ms >= 0)).toBe(true);
    const toolResult = h.model.requests.at(-1)!.body.messages.at(-1)!.content!;
    expect(JSON.parse(toolResult).results.map((r: { status: string }) => r.status)).toEqual(['completed', 'completed']);
    expect(toolResult).not.toContain('orchestrator');
    expect(toolResult).not.toContain('role');
    // Children are told about every tool but delegation.
    const childRequest = h.model.requests.at(-2)!.body;
    expect(childRequest.tools!.map((t) => t.function.name)).not.toContain('delegate_task');
  });
});

describe('restricted tool sets (§1.5)', () => {
  it("a child's call outside its tool set is denied without pre_tool_call and treated as a block", async () => {
    h.model.script(
      { tool_calls: [{ name: 'delegate_task', arguments: { goal: 'go deeper' } }] },
      { tool_calls: [{ name: 'delegate_task', arguments: { goal: 'deeper still' } }] },
      { content: 'child gave up' },
      { content: 'parent done' },
    );
    await h.say('nest', 'restricted');
    const calls = await h.takeCalls();
    expect(calls.filter((c) => c.hook === 'pre_tool_call').map((c) => c.kwargs.session_id)).toHaveLength(1);
    const denied = "Tool 'delegate_task' denied: not in this thread's tool whitelist";
    const childPost = calls.filter((c) => c.hook === 'post_tool_call').find((c) => c.kwargs.status === 'blocked')!;
    expect(childPost.kwargs).toMatchObject({ error_type: 'plugin_block', error_message: denied, duration_ms: 0 });
    expect(childPost.kwargs.session_id).toContain(':sub:');
    const childRequest = h.model.requests.at(-2)!.body;
    expect(childRequest.messages.at(-1)).toMatchObject({ role: 'tool', content: `{"error": "${denied}"}` });
  });
});

describe('trace', () => {
  it('records each hook call of the turn with source, callback and decision', async () => {
    await h.decide({ pre_tool_call: { terminal: { action: 'block', message: 'nope' } } });
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'ls' } }] }, { content: 'ok' });
    const result = await h.say('trace me', 'trace');
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const pre = records.find((r) => r.hook === 'pre_tool_call')!;
    expect(pre).toMatchObject({ source: 'plugin', callback: 'recorder', decision: 'block: nope' });
    const start = records.find((r) => r.hook === 'agent:start')!;
    expect(start).toMatchObject({ source: 'gateway', callback: 'recorder' });
    expect(records.map((r) => r.hook)).toContain('on_session_end');
    expect(records.every((r) => r.turn_id === result.turn_id)).toBe(true);
  });

  it('replays a turn whose pre_tool_call rewrote the arguments, and one whose rewrite the tool refused, as the same', async () => {
    for (const [args, chat] of [
      [{ command: 'echo rewritten' }, 'rewrite-kept'],
      [{ command: 123 }, 'rewrite-refused'],
    ] as const) {
      await h.decide({ pre_tool_call: { terminal: { action: 'rewrite', args } } });
      h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'echo original' } }] }, { content: 'ok' });
      const result = await h.say('rewrite me', chat);
      const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
      const note = records.find((r) => r.decision.startsWith('rewrite:'));
      // The note of the rewrite is in the trace only when the rewrite was taken.
      if (typeof args.command === 'string') expect(note).toMatchObject({ phase: 'note' });
      else expect(note).toBeUndefined();
      const replay = await replayTurn(result.turn_id, records, h.engine, h.plane.transcripts);
      expect(
        replay.calls.find((c) => c.hook === 'pre_tool_call'),
        chat,
      ).toMatchObject({ status: 'same' });
      expect({ chat, exit: replay.exit_code, differs: replay.differs, notReplayable: replay.not_replayable }).toEqual({
        chat,
        exit: 0,
        differs: 0,
        notReplayable: 0,
      });
      await h.takeCalls();
    }
  });

  it('replay tells a rewrite to other arguments from the one recorded (§5.10: the rewrite decides what runs)', async () => {
    await h.decide({ pre_tool_call: { terminal: { action: 'rewrite', args: { command: 'echo v1' } } } });
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'echo original' } }] }, { content: 'ok' });
    const result = await h.say('rewrite me', 'rewrite-changed');
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    await h.decide({ pre_tool_call: { terminal: { action: 'rewrite', args: { command: 'echo v2' } } } });
    const replay = await replayTurn(result.turn_id, records, h.engine, h.plane.transcripts);
    expect(replay.calls.find((c) => c.hook === 'pre_tool_call')).toMatchObject({
      status: 'differs',
      before: 'rewrite',
      now: 'rewrite',
      note: 'decision changed',
    });
    expect(replay.exit_code).toBe(1);
    await h.takeCalls();
  });

  it('keeps the stored history as its transcript range, not a copy, and replay reads it back whole', async () => {
    h.model.script({ content: 'one' }, { content: 'two' });
    await h.say('first', 'history-ref');
    await h.takeCalls();
    const result = await h.say('second', 'history-ref');
    const seen = only(await h.takeCalls(), 'pre_llm_call').kwargs.conversation_history;
    expect(seen.map((m: { content: string }) => m.content)).toEqual(['first', 'one', 'second']);

    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const pre = records.find((r) => r.hook === 'pre_llm_call')!;
    const post = records.find((r) => r.hook === 'post_llm_call')!;
    const range = { session_id: JSON.parse(pre.kwargs!).session_id, count: 2 };
    expect(pre.kwargs_history).toMatchObject(range);
    expect(post.kwargs_history).toEqual(pre.kwargs_history);
    expect(pre.kwargs_history!.to_seq - pre.kwargs_history!.from_seq).toBe(1);
    // Only this turn's messages are in the record.
    expect(JSON.parse(pre.kwargs!).conversation_history).toEqual([{ role: 'user', content: 'second' }]);
    expect(JSON.parse(post.kwargs!).conversation_history).toEqual([
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two' },
    ]);

    const replay = await replayTurn(result.turn_id, records, h.engine, h.plane.transcripts);
    expect(replay.calls.find((c) => c.hook === 'pre_llm_call')).toMatchObject({ status: 'same' });
    expect(only(await h.takeCalls(), 'pre_llm_call').kwargs.conversation_history).toEqual(seen);

    // Without the transcript the call is not run on a partial history.
    const blind = await replayTurn(result.turn_id, records, h.engine);
    expect(blind.calls.find((c) => c.hook === 'pre_llm_call')).toMatchObject({
      status: 'not-replayable',
      note: expect.stringContaining('transcript'),
    });
    expect((await h.takeCalls()).map((c) => c.hook)).not.toContain('pre_llm_call');
  });
});

describe('across every turn of this file', () => {
  it("every plugin hook's kwargs follow the catalogue's key order, with the telemetry tag last", async () => {
    await h.takeCalls();
    const { KWARGS_KEY_ORDER } = await import('../../src/hooks/catalogue.ts');
    const plugins = h.allCalls.filter((c) => !c.hook.includes(':'));
    const seen = new Set(plugins.map((c) => c.hook));
    for (const hook of [
      'pre_tool_call',
      'post_tool_call',
      'transform_tool_result',
      'transform_terminal_output',
      'transform_llm_output',
      'pre_llm_call',
      'post_llm_call',
      'pre_api_request',
      'post_api_request',
      'api_request_error',
      'on_session_start',
      'on_session_end',
      'subagent_start',
      'subagent_stop',
    ]) {
      expect(seen, hook).toContain(hook);
    }
    for (const call of plugins) {
      const order = (KWARGS_KEY_ORDER as Record<string, readonly string[]>)[call.hook];
      expect(order, call.hook).toBeDefined();
      // §1.13: idle-expiry finalize has no old/new ids (only the gateway reset passes them).
      const expected = SITE_DEPENDENT_KEYS[call.hook]
        ? order!.filter((k) => !SITE_DEPENDENT_KEYS[call.hook]!.includes(k))
        : order!;
      expect(call.keys, call.hook).toEqual([...expected, TAG]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.ts';
import { startExamplesDev, startReceiver, waitFor, type ExamplesDev, type Receiver } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The model-turn plugin examples — memory-recall and guardrail-context (pre_llm_call), memory-sync and
 * response-length (post_llm_call), response-transform (transform_llm_output) — firing in
 * `hookgate dev` on a copy of the examples home. A fake OpenAI-compatible model on loopback
 * (HOOKGATE_MODEL_BASE_URL) shows what the model was sent; a fake memory service on loopback
 * (MEMORY_API_URL) stores exchanges and recalls them. response-transform is off in
 * examples/config.yaml, so the copy enables it, as a user would, with SPONGEBOB_MODE=on.
 */
let dev: ExamplesDev;
let memory: Receiver;
let model: FakeModelServer;

interface Stored {
  session_id: string;
  user: string;
  assistant: string;
}

beforeAll(async () => {
  // The memory service: /store keeps an exchange, /recall answers every stored user message of the session.
  memory = await startReceiver((request) => {
    if (request.path !== '/recall') return { ok: true };
    const { session_id } = request.body as { session_id: string };
    const stored = memory.received.filter((r) => r.path === '/store').map((r) => r.body as Stored);
    return { results: stored.filter((s) => s.session_id === session_id).map((s) => ({ text: s.user })) };
  });
  model = await startFakeModelServer();
  dev = await startExamplesDev({
    enable: ['response-transform'],
    // BOOT.md would run a one-shot agent on the (scripted) model at start-up.
    remove: ['BOOT.md'],
    env: {
      MEMORY_API_URL: memory.url,
      HOOKGATE_MODEL_BASE_URL: model.baseUrl,
      HOOKGATE_MODEL: 'fake-model',
      SPONGEBOB_MODE: 'on',
    },
  });
});
afterAll(async () => {
  await dev?.stop();
  await memory?.close();
  await model?.close();
});

/** The user message of the model's `index`-th request, as sent (with any injected context). */
function userMessageSent(index: number): string {
  const messages = model.requests[index]!.body.messages;
  return String(messages.findLast((m) => m.role === 'user')!.content);
}

describe('response-transform (transform_llm_output)', () => {
  it('delivers the rewritten response: every ! becomes "!! Tartar sauce!"', async () => {
    model.script({ content: 'Noted, teal it is!' });
    expect(await dev.chat('mem-1', 'my favourite colour is teal')).toBe('Noted, teal it is!! Tartar sauce!');
  });
});

describe('memory-sync (post_llm_call) and memory-recall (pre_llm_call)', () => {
  it('stores the exchange (the response as delivered) in the memory service', async () => {
    const store = await waitFor(() => memory.received.find((r) => r.path === '/store'), 'POST /store');
    expect(store.body).toEqual({
      session_id: expect.any(String),
      user: 'my favourite colour is teal',
      assistant: 'Noted, teal it is!! Tartar sauce!',
    });
  });

  it('asks for memories each turn, injects nothing when there are none, and the recalled context when there are', async () => {
    const recalls = memory.received.filter((r) => r.path === '/recall');
    expect(recalls[0]!.body).toEqual({ session_id: expect.any(String), query: 'my favourite colour is teal' });
    expect(userMessageSent(0)).not.toContain('Recalled context');

    model.script({ content: 'Teal.' });
    expect(await dev.chat('mem-1', 'what is my favourite colour?')).toBe('Teal.');
    const sent = userMessageSent(1);
    expect(sent.startsWith('what is my favourite colour?\n\n')).toBe(true);
    expect(sent).toContain('Recalled context:\n- my favourite colour is teal');
    const { session_id } = memory.received.find((r) => r.path === '/store')!.body as Stored;
    expect(memory.received.filter((r) => r.path === '/recall')[1]!.body).toEqual({
      session_id,
      query: 'what is my favourite colour?',
    });
  });

  it('leaves another session without memories', async () => {
    model.script({ content: 'Hi.' });
    await dev.chat('mem-2', 'hello');
    expect(userMessageSent(2)).not.toContain('Recalled context');
  });
});

describe('guardrail-context (pre_llm_call)', () => {
  it('adds the policy to every turn’s user message (before memory-recall’s context: plugins run in directory order)', () => {
    const policy = 'Never execute commands that delete files without explicit user confirmation.';
    for (const index of [0, 2]) expect(userMessageSent(index)).toMatch(new RegExp(`\\n\\n${policy.replace(/\./g, '\\.')}$`));
    expect(userMessageSent(1)).toBe(
      `what is my favourite colour?\n\n${policy}\n\nRecalled context:\n- my favourite colour is teal`,
    );
  });
});

describe('response-length (post_llm_call)', () => {
  it('logs one RESPONSE line per turn with the session, the model and the delivered length', async () => {
    const log = await dev.logWhen('response-length.log', (t) => t.trim().split('\n').length >= 3, 'three RESPONSE lines');
    // Observers of different turns may finish in any order: compare as a set.
    const lines = log
      .trim()
      .split('\n')
      .map((line) => line.replace(/^\S+ /, '').replace(/session=\S+/, 'session=<id>'));
    expect(lines.sort()).toEqual([
      'RESPONSE session=<id> model=fake-model chars=3', // 'Hi.'
      'RESPONSE session=<id> model=fake-model chars=33', // 'Noted, teal it is!! Tartar sauce!'
      'RESPONSE session=<id> model=fake-model chars=5', // 'Teal.'
    ]);
  });
});

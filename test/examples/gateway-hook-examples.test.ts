import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startExamplesDev, startReceiver, waitFor, type ExamplesDev, type Receiver } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The gateway-hook examples (examples/hooks/command-logger, examples/hooks/session-webhook)
 * firing in `hookgate dev` on a copy of the examples home: messages go in through the local
 * adapter, the hooks run in the observer consumer, and their effects are looked at — a line in
 * the copy's logs/command_usage.jsonl, a POST received by a webhook receiver on loopback.
 */
let dev: ExamplesDev;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  dev = await startExamplesDev({ env: { SESSION_WEBHOOK_URL: `${receiver.url}/hermes-events` } });
});
afterAll(async () => {
  await dev?.stop();
  await receiver?.close();
});

describe('command-logger (command:*)', () => {
  it('writes one JSON line per slash command, with its arguments, platform and user', async () => {
    await dev.chat('cmd-1', '/help me please', 'alice');
    await dev.chat('cmd-1', '/status', 'alice');
    const log = await dev.logWhen('command_usage.jsonl', (t) => t.trim().split('\n').length >= 2, 'two command lines');
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map(({ ts: _ts, ...rest }) => rest)).toEqual([
      { command: 'help', args: 'me please', platform: 'local', user: 'alice' },
      { command: 'status', args: '', platform: 'local', user: 'alice' },
    ]);
    expect(Number.isNaN(Date.parse(String(lines[0]!.ts)))).toBe(false);
  });
});

describe('session-webhook (session:start, session:reset)', () => {
  it('POSTs the event and its context to SESSION_WEBHOOK_URL for a new session, then for /new', async () => {
    expect(await dev.chat('hook-1', 'hello', 'bob')).toBe('You said: hello');
    const start = await waitFor(
      () => receiver.received.find((r) => (r.body as { session_key?: string }).session_key === 'local:hook-1'),
      'session:start at the receiver',
    );
    expect(start.path).toBe('/hermes-events');
    expect(start.body).toEqual({
      event: 'session:start',
      platform: 'local',
      user_id: 'bob',
      session_id: expect.any(String),
      session_key: 'local:hook-1',
    });

    await dev.chat('hook-1', '/new', 'bob');
    const reset = await waitFor(
      () =>
        receiver.received.find(
          (r) =>
            (r.body as { event?: string; session_key?: string }).event === 'session:reset' &&
            (r.body as { session_key?: string }).session_key === 'local:hook-1',
        ),
      'session:reset at the receiver',
    );
    expect(reset.body).toEqual({ event: 'session:reset', platform: 'local', user_id: 'bob', session_key: 'local:hook-1' });
    expect(dev.stdout()).not.toContain('SESSION_WEBHOOK_URL is not set');
  });
});

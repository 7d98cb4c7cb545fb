import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startExamplesDev, startReceiver, waitFor, type ExamplesDev, type Receiver } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The tool-call plugin examples — tool-metrics (post_tool_call), dangerous-tool-warning
 * (pre_tool_call), summarize-find (transform_terminal_output), subagent-log (subagent_stop) and
 * approval-notifier (pre_approval_request, post_approval_response) — firing in `hookgate dev`
 * on a copy of the examples home, as shipped (all five are enabled there). The built-in
 * stand-in model turns `run: …`, `read: …` and `delegate: …` messages into tool calls.
 */
let dev: ExamplesDev;
let notifier: Receiver;

beforeAll(async () => {
  notifier = await startReceiver();
  dev = await startExamplesDev({ env: { APPROVAL_NOTIFIER_URL: `${notifier.url}/notify` } });
});
afterAll(async () => {
  await dev?.stop();
  await notifier?.close();
});

type Metrics = Record<string, { calls: number; errors: number; latency_ms: number[] }>;

describe('tool-metrics (post_tool_call)', () => {
  it('counts calls, errors and latency per tool in logs/tool-metrics.json', async () => {
    expect(await dev.chat('metrics-1', 'run: echo metered')).toBe('metered');
    expect(await dev.chat('metrics-1', 'read: no-such-file.txt')).toMatch(/^Error: /);
    const text = await dev.logWhen('tool-metrics.json', (t) => t.includes('read_file'), 'read_file in tool-metrics.json');
    const metrics = JSON.parse(text) as Metrics;
    expect(metrics.terminal).toMatchObject({ calls: 1, errors: 0 });
    expect(metrics.read_file).toMatchObject({ calls: 1, errors: 1 });
    expect(metrics.terminal!.latency_ms).toEqual([expect.any(Number)]);
  });
});

describe('dangerous-tool-warning (pre_tool_call)', () => {
  it('prints a warning for terminal, not for read_file, and lets the call run', async () => {
    expect(await dev.chat('warn-1', 'run: echo still runs')).toBe('still runs');
    expect(dev.stdout()).toContain('⚠ Executing potentially dangerous tool: terminal');
    expect(dev.stdout()).not.toContain('dangerous tool: read_file');
  });
});

describe('summarize-find (transform_terminal_output)', () => {
  it('hands the model the first 40 paths and a count when `find` prints over 50,000 characters', async () => {
    const names = "seq -f 'a-rather-long-file-name-so-that-find-prints-a-lot-%05g.txt' 1 2000";
    expect(await dev.chat('find-1', `run: mkdir -p many && cd many && ${names} | xargs touch`)).toBe('(no output)');
    const reply = await dev.chat('find-1', "run: find many -name '*.txt'");
    expect(reply).toMatch(/\n\n\[summary: 2000 paths total, showing first 40\]$/);
    expect(reply.split('\n')).toHaveLength(40 + 2);
    // A short find passes unchanged.
    expect(await dev.chat('find-1', "run: find many -name '*00001.txt'")).toBe(
      'many/a-rather-long-file-name-so-that-find-prints-a-lot-00001.txt',
    );
  });
});

describe('subagent-log (subagent_stop)', () => {
  it('writes a SUBAGENT line for each finished child of delegate_task', async () => {
    expect(await dev.chat('sub-1', 'delegate: say hello')).toContain('Subtask "say hello" completed');
    const log = await dev.logWhen('subagent.log', (t) => t.includes('SUBAGENT'), 'a SUBAGENT line');
    expect(log).toMatch(/^\S+ SUBAGENT parent=\S+ role=\S+ status=completed duration_ms=\d+\n$/);
  });
});

describe('approval-notifier (pre_approval_request, post_approval_response)', () => {
  it('notifies APPROVAL_NOTIFIER_URL when a command waits for approval, then logs and notifies the answer', async () => {
    const prompt = await dev.chat('appr-1', 'run: git push --force origin main');
    expect(prompt).toContain('needs your approval');
    const request = await waitFor(
      () => notifier.received.find((r) => (r.body as { event?: string }).event === 'pre_approval_request'),
      'the approval notification',
    );
    expect(request.path).toBe('/notify');
    expect(request.body).toEqual({
      event: 'pre_approval_request',
      title: 'Hermes needs approval',
      body: expect.stringMatching(/: git push --force origin main$/),
      session_key: 'local:appr-1',
      pattern_key: 'git_force_push',
    });

    await dev.chat('appr-1', '/deny');
    const log = await dev.logWhen('approvals.log', (t) => t.includes('approval'), 'the approval decision line');
    expect(log).toMatch(/^\S+ approval deny: git push --force origin main for session local:appr-1\n$/);
    const response = await waitFor(
      () => notifier.received.find((r) => (r.body as { event?: string }).event === 'post_approval_response'),
      'the answer notification',
    );
    expect(response.body).toEqual({
      event: 'post_approval_response',
      choice: 'deny',
      session_key: 'local:appr-1',
      pattern_key: 'git_force_push',
    });
  });
});

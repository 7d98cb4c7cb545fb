import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startExamplesDev, type ExamplesDev } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The examples that were ported first — tool-audit-log (plugin), activity-logger,
 * command-policy, long-task-alert (gateway hooks) — firing in `hookgate dev` on a copy of the
 * examples home as shipped. guardrail-context is seen by the fake model in
 * llm-hook-examples.test.ts; the shell scripts run in test/shell/examples.test.ts;
 * redact-secrets only in test/hooks/examples.test.ts, because in a running turn every tool
 * result has its `sk-…` keys masked as `***` before transform_tool_result sees it.
 */
let dev: ExamplesDev;

beforeAll(async () => {
  dev = await startExamplesDev();
});
afterAll(async () => {
  await dev?.stop();
});

describe('tool-audit-log (pre_tool_call)', () => {
  it('writes a TOOL_CALL line per tool call and lets it run', async () => {
    expect(await dev.chat('audit-1', 'run: echo audited')).toBe('audited');
    const log = await dev.logWhen('tool-audit.log', (t) => t.includes('audited'), 'the TOOL_CALL line');
    expect(log).toMatch(/^\S+ TOOL_CALL session=\S+ tool=terminal args=\{"command":"echo audited"\}\n$/);
  });
});

describe('activity-logger (agent:start, agent:step, agent:end)', () => {
  it('writes one JSON line per agent event of a turn', async () => {
    await dev.chat('activity-1', 'hello activity');
    const log = await dev.logWhen(
      'activity.log',
      (t) => t.includes('"response":"You said: hello activity"'),
      'agent:end for the turn',
    );
    const events = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.chat_id === 'activity-1' || e.message === 'hello activity');
    expect(events.map((e) => e.event).sort()).toEqual(['agent:end', 'agent:start']);
    expect(events.find((e) => e.event === 'agent:start')).toMatchObject({
      platform: 'local',
      user_id: 'me',
      message: 'hello activity',
    });
  });
});

describe('command-policy (command:*)', () => {
  it('denies /stop to a non-admin and rewrites /reset to /new', async () => {
    expect(await dev.chat('policy-1', '/stop')).toBe('Only admins may /stop a running turn.');
    expect(await dev.chat('policy-1', '/reset')).toBe('✨ New session started.');
  });

  it('answers /model without a name with its usage line; with a name, /model itself answers', async () => {
    expect(await dev.chat('policy-2', '/model')).toBe('Usage: /model <name>');
    expect(await dev.chat('policy-2', '/model gpt-4o')).toBe(
      'Model: the built-in stand-in model (HOOKGATE_MODEL_BASE_URL is not set)\nThe model is set for the whole gateway (HOOKGATE_MODEL); /model cannot switch it per chat.',
    );
  });
});

describe('long-task-alert (agent:step)', () => {
  it('writes the alert when a turn reaches its 10th step', async () => {
    const steps = Array.from({ length: 10 }, (_, i) => `run: echo step ${i + 1}`).join('\n');
    expect(await dev.chat('long-1', steps)).toBe('step 10');
    const log = await dev.logWhen('long-task-alert.log', (t) => t.includes('10 steps'), 'the long-task alert');
    expect(JSON.parse(log.trim())).toMatchObject({
      platform: 'local',
      text: '⚠️ Agent has been running for 10 steps. Last tools: terminal',
    });
  });
});

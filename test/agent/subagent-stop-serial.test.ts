import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.ts';
import { enable, plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';

/**
 * hook-semantics §1.14 through the whole pipeline (issue #14 item 3): with observer events
 * going through SNS/SQS to the observer consumer, the `subagent_stop` calls of one batch
 * delegation still run one after another, after every child finished, in result order.
 */
let home: TempHome;
let model: FakeModelServer;
let dev: DevRuntime;

beforeAll(async () => {
  home = await tempHome({
    'config.yaml': enable('stops'),
    // Each call notes its start and end, with a pause between: overlapping calls interleave.
    ...plugin(
      'stops',
      `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'stops.log');
      ctx.register_hook('subagent_stop', async (k: any) => {
        appendFileSync(file, 'start ' + k.child_summary + '\\n');
        await new Promise((resolve) => setTimeout(resolve, 150));
        appendFileSync(file, 'end ' + k.child_summary + '\\n');
      });`,
    ),
  });
  model = await startFakeModelServer();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_HOME: home.path,
    HOOKGATE_MODEL_BASE_URL: model.baseUrl,
    HOOKGATE_MODEL: 'fake-model',
    HOOKGATE_MODEL_API_KEY: 'k',
  };
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});
afterAll(async () => {
  await dev?.stop();
  await model?.close();
  await home?.remove();
});

describe('subagent_stop for a batch delegation (§1.14)', () => {
  it('runs the calls one after another, in result order, never side by side', async () => {
    const goals = ['one', 'two', 'three'];
    model.script(
      { tool_calls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] },
      ...goals.map(() => ({ content: 'child' })),
      { content: 'parent done' },
    );
    const posted = await fetch(`${dev.url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'd1', user_id: 'u1', text: 'go' }),
    });
    expect(posted.status).toBe(202);
    const file = join(home.path, 'stops.log');
    const lines = await until(async () => {
      const now = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
      return now.filter((l) => l.startsWith('end')).length >= goals.length ? now : undefined;
    }, `${goals.length} subagent_stop calls ended`);
    // Children all answer "child": the order of starts and ends is what matters.
    expect(lines).toEqual(['start child', 'end child', 'start child', 'end child', 'start child', 'end child']);
  });
});

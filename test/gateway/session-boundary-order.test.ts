import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { queueDepth } from '../support/queue-depth.ts';
import { until } from '../support/until.ts';

vi.setConfig({ testTimeout: 180_000 });

/**
 * hook-semantics §1.13.1 through the whole pipeline (observer events on SNS → SQS, as in
 * AWS): the four hooks of a `/new` run in the specified order every time, plugin hooks and
 * gateway hooks mixed, each taking a random while so that any overlap or reordering shows.
 */
const RUNS = 50;
const APPEND = `
  const { appendFileSync } = await import('node:fs');
  const { join, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'order.log');
  const note = async (what: string) => {
    appendFileSync(file, 'start ' + what + '\\n');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
    appendFileSync(file, 'end ' + what + '\\n');
  };`;

let home: TempHome;
let dev: DevRuntime;

beforeAll(async () => {
  home = await tempHome({
    'config.yaml': 'plugins:\n  enabled: [order]\n',
    ...plugin(
      'order',
      `${APPEND}
  ctx.register_hook('on_session_finalize', () => note('on_session_finalize'));
  ctx.register_hook('on_session_reset', () => note('on_session_reset'));`,
    ),
    'hooks/order/HOOK.yaml': 'name: order\nevents:\n  - session:end\n  - session:reset\n',
    'hooks/order/handler.ts': `export async function handle(type: string): Promise<void> {${APPEND}\n  await note(type);\n}\n`,
  });
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env: { ...process.env, HOOKGATE_HOME: home.path },
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});
afterAll(async () => {
  await dev?.stop();
  await home?.remove();
});

const lines = async () => (await readFile(join(home.path, 'order.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('/new in the order of §1.13.1 (issue #27)', () => {
  it(`fires on_session_finalize, session:end, session:reset, on_session_reset, one at a time, in ${RUNS} runs of ${RUNS}`, async () => {
    const order = ['on_session_finalize', 'session:end', 'session:reset', 'on_session_reset'];
    const once = order.flatMap((hook) => [`start ${hook}`, `end ${hook}`]);
    for (let run = 1; run <= RUNS; run++) {
      const posted = await fetch(`${dev.url}/webhooks/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: 'boundary', user_id: 'u1', text: run % 2 === 0 ? '/reset' : '/new' }),
      });
      expect(posted.status).toBe(202);
      await until(async () => (await lines()).length >= run * once.length, `run ${run}'s four hooks`);
    }
    // Nothing late: every observer event of the runs has been consumed and deleted.
    const sqs = new SQSClient({ endpoint: dev.aws.sqsEndpoint, region: dev.aws.region, credentials: dev.aws.credentials });
    try {
      for (const [queue, url] of [
        ['turns', dev.aws.turnsQueueUrl],
        ['events', dev.aws.eventsQueueUrl],
      ] as const) {
        await until(async () => (await queueDepth(sqs, url)) === 0, `the ${queue} queue drained`);
      }
    } finally {
      sqs.destroy();
    }
    expect(await lines()).toEqual(Array.from({ length: RUNS }, () => once).flat());
  });
});

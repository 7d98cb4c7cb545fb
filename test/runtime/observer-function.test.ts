import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createHash } from 'node:crypto';
import { SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startSqsPoller, type SqsPoller } from '../../src/local/sqs-poller.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { asDeployed } from '../support/function-grants.ts';
import { createObserverFunction } from '../../src/runtime/observer-function.ts';
import { onEmulators } from './support/on-emulators.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { startTestAws } from '../support/local-aws.ts';
import { queueDepth } from '../support/queue-depth.ts';
import { until } from '../support/until.ts';

/** A hooks home with one observer plugin and one gateway event hook, both appending to a file. */
async function writeHome(home: string, out: string) {
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [audit]\n');
  await mkdir(join(home, 'plugins', 'audit'), { recursive: true });
  await writeFile(join(home, 'plugins', 'audit', 'plugin.yaml'), 'name: audit\n');
  await writeFile(
    join(home, 'plugins', 'audit', 'index.mjs'),
    `import { appendFileSync } from 'node:fs';
export function register(ctx) {
  ctx.register_hook('post_tool_call', (kw) => { appendFileSync(${JSON.stringify(out)}, JSON.stringify({ plugin: kw.tool_name }) + '\\n'); });
}
`,
  );
  await mkdir(join(home, 'hooks', 'steps'), { recursive: true });
  await writeFile(join(home, 'hooks', 'steps', 'HOOK.yaml'), 'name: steps\nevents: ["agent:*"]\n');
  await writeFile(
    join(home, 'hooks', 'steps', 'handler.mjs'),
    `import { appendFileSync } from 'node:fs';
export function handle(event, context) { appendFileSync(${JSON.stringify(out)}, JSON.stringify({ gateway: event, n: context.n }) + '\\n'); }
`,
  );
}

describe('observer λ wiring with the real engine and a hooks home', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;
  let poller: SqsPoller;
  let home: string;
  let out: string;

  beforeAll(async () => {
    aws = await startTestAws({ eventsVisibilityTimeout: 1 });
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
    home = await mkdtemp(join(tmpdir(), 'hookgate-observer-'));
    out = join(home, 'ran.jsonl');
    await writeHome(home, out);
    const config = loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: 'silent' }, { runtime: 'aws' });
    const runtime = await asDeployed(
      'observer',
      createRuntime(onEmulators(config, aws), {
        createEngine: (options) => createHookEngine({ ...options, home, print: () => {} }),
      }),
    );
    const handler = await createObserverFunction(runtime);
    poller = await startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.eventsQueueUrl, handler, batchWindowMs: 100 });
  });
  afterAll(async () => {
    await poller?.stop();
    plane?.destroy();
    await aws?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('runs plugin observers and gateway event hooks once per envelope, duplicates included', async () => {
    await plane.observerSink.publish([
      { id: 'p1', type: 'post_tool_call', payload: { tool_name: 'terminal', args: {} } },
      { id: 'g1', type: 'agent:step', payload: { n: 1 } },
    ]);
    await plane.observerSink.publish([{ id: 'p1', type: 'post_tool_call', payload: { tool_name: 'terminal', args: {} } }]);
    const lines = async () =>
      (await readFile(out, 'utf8').catch(() => ''))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    await until(async () => (await lines()).length >= 2, 'two observer lines');
    // Count only once every delivery, the duplicate included, has been consumed and deleted.
    await until(async () => (await queueDepth(plane.clients.sqs, aws.eventsQueueUrl)) === 0, 'the events queue drained');
    expect((await lines()).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { gateway: 'agent:step', n: 1 },
      { plugin: 'terminal' },
    ]);
  });

  it('reads an envelope too big for SNS back from the payload bucket, as its role allows', async () => {
    // Published by the test's own plane (S3, then a reference on SNS); the deployed observer's read
    // of the payload goes through the grant check (s3:GetObject under payloads/).
    await plane.observerSink.publish([
      { id: 'big', type: 'post_tool_call', payload: { tool_name: 'big', args: { blob: 'x'.repeat(300_000) } } },
    ]);
    await until(
      async () => (await readFile(out, 'utf8').catch(() => '')).includes('{"plugin":"big"}'),
      'the offloaded envelope observed',
    );
  });

  it('acknowledges an event nothing observes without an idempotency record, and keeps one for an observed event', async () => {
    await plane.observerSink.publish([
      { id: 'unobserved-plugin', type: 'post_llm_call', payload: {} }, // no plugin or shell hook on it
      { id: 'unobserved-gateway', type: 'session:start', payload: {} }, // the home's gateway hook is on agent:*
      { id: 'observed', type: 'agent:end', payload: { n: 2 } },
    ]);
    const record = async (id: string) =>
      (
        await plane.clients.dynamodb.send(
          new GetItemCommand({
            TableName: aws.tableName,
            Key: {
              PK: {
                S: `${SingleTableIdempotencyStore.KEY_PREFIX}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`,
              },
              SK: { S: SingleTableIdempotencyStore.SORT_KEY },
            },
            ConsistentRead: true,
          }),
        )
      ).Item;
    // The lock is written INPROGRESS first, then marked COMPLETED when the observers have run.
    await until(async () => (await record('observed'))?.status?.S === 'COMPLETED', "the observed event's record COMPLETED");
    // Acknowledged (deleted), not failed.
    await until(async () => (await queueDepth(plane.clients.sqs, aws.eventsQueueUrl)) === 0, 'the events queue drained');
    expect(await record('unobserved-plugin')).toBeUndefined();
    expect(await record('unobserved-gateway')).toBeUndefined();
  });
});

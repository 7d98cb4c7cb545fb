import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { until } from '../support/until.ts';

let home: string;
let dev: DevRuntime;
let sqs: SQSClient;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-console-api-'));
  // A guard plugin whose register() throws: dev starts without it, and must say it is not running.
  await mkdir(join(home, 'plugins', 'veto'), { recursive: true });
  await writeFile(join(home, 'plugins', 'veto', 'plugin.yaml'), 'name: veto\n');
  await writeFile(
    join(home, 'plugins', 'veto', 'index.mjs'),
    "export function register() { throw new Error('no policy file'); }\n",
  );
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [veto]\n');
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.HOOKGATE_MODEL_BASE_URL;
  // No turn consumer: a replayed turn message stays on the turns queue, where the test can see it.
  dev = await startDevRuntime({
    home,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {} }),
  });
  sqs = new SQSClient({ endpoint: dev.aws.sqsEndpoint, region: dev.aws.region, credentials: dev.aws.credentials });
});

afterAll(async () => {
  sqs?.destroy();
  await dev?.stop();
  await rm(home, { recursive: true, force: true });
});

const api = (path: string, init?: RequestInit) => fetch(`${dev.url}/console/api/${path}`, init);
const mutate = (path: string, body: unknown) =>
  api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hookgate-console': '1' },
    body: JSON.stringify(body),
  });

describe('console API', () => {
  it('shows an enabled plugin that failed to load as not running, with why', async () => {
    const hooks = (await (await api('hooks')).json()) as { plugins: { name: string; enabled: boolean; failed: string | null }[] };
    expect(hooks.plugins).toEqual([
      { name: 'veto', dir: 'veto', enabled: true, failed: expect.stringContaining('no policy file') },
    ]);
  });

  it('lists a dead turn message and replays it to the turns queue', async () => {
    const body = JSON.stringify({
      v: 1,
      kind: 'message',
      delivery_id: 'local:dead-1',
      session_key: 'local:c',
      received_at: new Date().toISOString(),
    });
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: dev.aws.turnsDlqUrl,
        MessageBody: body,
        MessageGroupId: 'g',
        MessageDeduplicationId: 'dead-1',
      }),
    );
    let queues: { queue: string; messages: { id: string | null }[] }[] = [];
    await until(async () => {
      queues = (await (await api('dlq')).json()) as typeof queues;
      return queues.find((q) => q.queue === 'turns')!.messages.length === 1;
    }, 'the dead letter in the console listing');
    expect(queues.find((q) => q.queue === 'turns')!.messages[0]!.id).toBe('local:dead-1');

    const replay = await mutate('dlq/replay', { queue: 'turns' });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ replayed: 1 });
    await until(
      async () => ((await (await api('dlq')).json()) as typeof queues).find((q) => q.queue === 'turns')!.messages.length === 0,
      'the DLQ to be empty',
    );
  });

  it('answers 400 for a bad replay request and 403 without the console header', async () => {
    expect((await mutate('dlq/replay', { queue: 'nope' })).status).toBe(400);
    expect((await api('dlq/replay', { method: 'POST', body: '{"queue":"turns"}' })).status).toBe(403);
    expect((await api('turns/not a turn')).status).toBe(400);
    expect((await mutate('hooks/approve', { event: 'pre_tool_call', command: '/bin/true' })).status).toBe(404);
  });

  it('serves the page with its script, no external resources', async () => {
    const page = await (await fetch(`${dev.url}/console/`)).text();
    expect(page).toContain('<script src="/console/app.js" type="module"></script>');
    expect(page).not.toMatch(/https?:\/\//);
    const script = await fetch(`${dev.url}/console/app.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });

  it('answers GET /console itself with the page (HTML), not a redirect a client must follow', async () => {
    const res = await fetch(`${dev.url}/console`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toBe(await (await fetch(`${dev.url}/console/`)).text());
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { until } from '../support/until.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));

let root: string;
let home: string;
let cwd: string;
let fake: FakePlatforms;
const devs: DevChild[] = [];
const children: ChildProcess[] = [];

const eventually = <T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  context: () => string,
  timeoutMs = 40_000,
) => until(probe, what, { timeoutMs, everyMs: 100, context });

async function startDev(...extra: string[]): Promise<DevChild> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOOKGATE_LOG_LEVEL: 'warn',
    TELEGRAM_BOT_TOKEN: '42:restart',
    TELEGRAM_SECRET_TOKEN: 'restart-secret',
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
  };
  delete env.HOOKGATE_HOME;
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_DEV_STATE; // the default state folder, .hookgate/state in the hooks home
  const dev = await startDevChild(['--accept-hooks', '--home', home, ...extra], {
    cwd,
    env,
    // The banner is one write; waiting for its state line too keeps this test off chunking.
    ready: (output) => /\n {2}state: /.test(output),
    timeoutMs: 40_000,
  });
  devs.push(dev);
  return dev;
}

const send = (dev: DevChild, body: Record<string, string>) =>
  fetch(`${dev.url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const history = async (dev: DevChild, chat: string): Promise<string[]> =>
  ((await (await fetch(`${dev.url}/webhooks/local/messages?chat_id=${chat}`)).json()) as { text: string }[]).map((m) => m.text);

const telegram = (dev: DevChild, updateId: number, text: string) =>
  fetch(`${dev.url}/webhooks/telegram`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'restart-secret' },
    body: JSON.stringify({
      update_id: updateId,
      message: { message_id: updateId, from: { id: 77, first_name: 'T' }, chat: { id: 77, type: 'private' }, text },
    }),
  });
const telegramReplies = () => fake.received('/telegram/bot42:restart/sendMessage').map((r) => (r.json as { text: string }).text);

beforeAll(async () => {
  fake = await startFakePlatforms();
  root = await mkdtemp(join(tmpdir(), 'hookgate-restart-'));
  home = join(root, 'home');
  cwd = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  // A shell hook that hangs while the `hold` file exists: the turn is in flight when dev is killed.
  const script = join(home, 'hold.sh');
  await writeFile(
    script,
    `#!/bin/sh\ncat > /dev/null\nwhile [ -f ${JSON.stringify(join(home, 'hold'))} ]; do touch ${JSON.stringify(join(home, 'held'))}; sleep 0.1; done\necho '{}'\n`,
  );
  await chmod(script, 0o755);
  await writeFile(
    join(home, 'config.yaml'),
    `hooks:\n  pre_llm_call:\n    - command: ${JSON.stringify(script)}\n      timeout: 120\n`,
  );
});

afterAll(async () => {
  for (const dev of devs) await dev.stop('SIGKILL');
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await fake?.close();
  await rm(root, { recursive: true, force: true });
});

describe('hookgate dev state across kill -9', () => {
  it('answers an acknowledged turn after a restart, once, with history and dedup intact', { timeout: 150_000 }, async () => {
    const first = await startDev();
    expect(first.output()).toContain(`state: ${join(home, '.hookgate', 'state')}`);

    // An answered turn, then a re-post of the same delivery: no second reply.
    expect((await send(first, { chat_id: 'c1', user_id: 'u1', text: 'one', message_id: 'm1' })).status).toBe(202);
    await eventually(async () => ((await history(first, 'c1')).length === 1 ? true : undefined), 'the first reply', first.output);
    expect((await telegram(first, 9001, 'tg one')).status).toBe(200);
    await eventually(() => (telegramReplies().length === 1 ? true : undefined), 'the Telegram reply', first.output);

    // A turn that is in flight (its hook hangs) when dev is killed.
    await writeFile(join(home, 'hold'), '');
    expect((await send(first, { chat_id: 'c1', user_id: 'u1', text: 'two', message_id: 'm2' })).status).toBe(202);
    await eventually(() => (existsSync(join(home, 'held')) ? true : undefined), 'the hook to hold the turn', first.output);
    await first.stop('SIGKILL');
    await rm(join(home, 'hold'));

    const second = await startDev();
    expect(second.output()).toMatch(/1 unanswered turn\(s\) re-queued/);
    const replies = await eventually(
      async () => {
        const texts = await history(second, 'c1');
        return texts.length >= 2 ? texts : undefined;
      },
      'the re-driven turn to be answered',
      second.output,
    );
    expect(replies).toEqual(['You said: one', 'You said: two']);

    // Dedup survived: the same deliveries again get 200 with no new turn.
    for (const [text, message_id] of [
      ['one', 'm1'],
      ['two', 'm2'],
    ] as const) {
      const again = await send(second, { chat_id: 'c1', user_id: 'u1', text, message_id });
      expect(again.status).toBeLessThan(300);
    }
    // The same Telegram update_id again: no second reply (a later update in the same chat is answered after it, FIFO).
    expect((await telegram(second, 9001, 'tg one')).status).toBe(200);
    expect((await telegram(second, 9002, 'tg two')).status).toBe(200);
    await eventually(() => (telegramReplies().length >= 2 ? true : undefined), 'the second Telegram reply', second.output);
    expect(telegramReplies()).toEqual([expect.stringContaining('You said: tg one'), expect.stringContaining('You said: tg two')]);
    // A fresh message goes through after them (same chat, FIFO): once it is answered, the duplicates would have been too.
    expect((await send(second, { chat_id: 'c1', user_id: 'u1', text: 'three' })).status).toBe(202);
    await eventually(
      async () => ((await history(second, 'c1')).includes('You said: three') ? true : undefined),
      'the third reply',
      second.output,
    );
    expect(await history(second, 'c1')).toEqual(['You said: one', 'You said: two', 'You said: three']);
    await second.stop('SIGKILL');

    // --fresh starts empty.
    const third = await startDev('--fresh');
    expect(await history(third, 'c1')).toEqual([]);
    await third.stop('SIGKILL');
  });

  it('refuses a second dev on the same state folder with a clear message', { timeout: 90_000 }, async () => {
    const first = await startDev('--state', join(root, 'shared-state'));
    const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const second = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--home', home, '--state', join(root, 'shared-state')], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(second);
    let stderr = '';
    second.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(
      `the state folder ${join(root, 'shared-state')} is in use by another hookgate dev (pid ${first.child.pid})`,
    );
    await first.stop('SIGKILL');
  });
});

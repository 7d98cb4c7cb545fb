import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevTurnJournal } from '../../src/local/turn-journal.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * A message whose turn kills `hookgate dev` would kill it again at every restart (the journal
 * re-sends what was acknowledged and unanswered). The real `hookgate dev` child, `--state DIR`,
 * is killed with SIGKILL while a `pre_llm_call` shell hook holds that turn, twice; the third
 * start answers the chat with an error and drops the message, and the chat goes on.
 */
let root: string;
let home: string;
let stateDir: string;
const devs: DevChild[] = [];

async function startDev(): Promise<DevChild> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOOKGATE_LOG_LEVEL: 'warn',
    HOOKGATE_LOG_FORMAT: 'text',
    NO_COLOR: '1',
  };
  for (const name of [
    'HOOKGATE_HOME',
    'HOOKGATE_MODEL_BASE_URL',
    'HOOKGATE_DEV_STATE',
    'HOOKGATE_ALLOWED_USERS',
    'HOOKGATE_API_TOKEN',
  ])
    delete env[name];
  const dev = await startDevChild(['--accept-hooks', '--home', home, '--state', stateDir, '--no-watch'], {
    cwd: root,
    env,
    // The state line (with the re-queued and dropped counts) comes after the URL.
    ready: (output) => /\n {2}state: .*\n/.test(output),
    timeoutMs: 60_000,
  });
  devs.push(dev);
  return dev;
}

const send = (dev: DevChild, text: string, messageId: string) =>
  fetch(`${dev.url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: 'loop', user_id: 'u1', text, message_id: messageId }),
  });
const history = async (dev: DevChild): Promise<string[]> =>
  ((await (await fetch(`${dev.url}/webhooks/local/messages?chat_id=loop`)).json()) as { text: string }[]).map((m) => m.text);
/** How many times `pre_llm_call` ran for a turn whose user message is `text` (the hook keeps each call's stdin). */
const hookCalls = async (text: string): Promise<number> => {
  const inputs = await Promise.all(
    (await readdir(join(home, 'calls'))).map((name) => readFile(join(home, 'calls', name), 'utf8')),
  );
  return inputs.filter((input) => {
    try {
      return (JSON.parse(input) as { extra?: { user_message?: unknown } }).extra?.user_message === text;
    } catch {
      return false;
    }
  }).length;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookgate-crash-loop-'));
  home = join(root, 'home');
  stateDir = join(root, 'state');
  await mkdir(join(home, 'calls'), { recursive: true });
  const q = (name: string) => JSON.stringify(join(home, name));
  // Writes down each call, then holds while `hold` exists, touching `held` (the turn is in flight).
  const script = join(home, 'hold.sh');
  await writeFile(
    script,
    `#!/bin/sh\ncat > "$(mktemp ${q('calls')}/call.XXXXXX)"\nwhile [ -f ${q('hold')} ]; do touch ${q('held')}; sleep 0.1; done\necho '{}'\n`,
  );
  await chmod(script, 0o755);
  await writeFile(
    join(home, 'config.yaml'),
    `hooks:\n  pre_llm_call:\n    - command: ${JSON.stringify(script)}\n      timeout: 300\n`,
  );
}, 60_000);

afterAll(async () => {
  for (const dev of devs) await dev.stop('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
});

describe('a journaled turn that kills hookgate dev twice', () => {
  it('is answered with an error and dropped at the next start, not re-run forever', { timeout: 240_000 }, async () => {
    await writeFile(join(home, 'hold'), '');
    const first = await startDev();
    expect((await send(first, 'the killer', 'k1')).status).toBe(202);
    await until(() => existsSync(join(home, 'held')), 'the hook to hold the turn');
    await first.stop('SIGKILL');

    // Second start: re-sent once, and it holds (and dies) again. (The first hook, orphaned by
    // the kill, still holds too: counted calls, not the `held` file, tell the second run.)
    const second = await startDev();
    expect(second.output()).toMatch(/1 unanswered turn\(s\) re-queued/);
    await until(async () => (await hookCalls('the killer')) === 2, 'the re-sent turn to be held again');
    await second.stop('SIGKILL');

    // Third start: no re-run; the chat is told, and goes on.
    await rm(join(home, 'hold'));
    const third = await startDev();
    expect(third.output()).toMatch(/1 turn\(s\) dropped: each stopped the server twice/);
    expect(third.output()).not.toMatch(/unanswered turn\(s\) re-queued/);
    expect(third.output()).toMatch(/turn dropped: it stopped the server twice while it ran/);
    await until(async () => (await history(third)).includes(DevTurnJournal.CRASH_LOOP_REPLY), 'the error reply');
    expect((await send(third, 'after', 'k2')).status).toBe(202);
    await until(async () => (await history(third)).includes('You said: after'), 'the next message to be answered');
    expect(await history(third)).toEqual([DevTurnJournal.CRASH_LOOP_REPLY, 'You said: after']);
    expect(await hookCalls('the killer')).toBe(2);
    // The same delivery again (a client retrying) starts no turn either.
    expect((await send(third, 'the killer', 'k1')).status).toBeLessThan(300);
    expect((await send(third, 'after two', 'k3')).status).toBe(202);
    await until(async () => (await history(third)).includes('You said: after two'), 'a later message to be answered');
    expect(await hookCalls('the killer')).toBe(2);
    await third.stop('SIGKILL');
  });
});

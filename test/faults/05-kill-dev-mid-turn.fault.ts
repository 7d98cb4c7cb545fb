import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { faultLine, settle, size, until } from './support/fault-line.ts';

/**
 * Fault 5: `kill -9` of the real `hookgate dev` (a child process, `--state DIR`) while
 * CHATS turns are acknowledged and unanswered — the turn pollers hold two of them in a
 * `pre_llm_call` shell hook that waits while a `hold` file exists, the rest wait on the
 * queue — then `hookgate dev` again on the same `--state`. Every turn is answered once (the
 * Telegram API fake counts the sends it accepted), and the same updates sent again after the
 * restart start no turn (the hook writes down every call).
 */
const CHATS = size(20, 6);
const SECRET = 'kill-secret';

let root: string;
let home: string;
let stateDir: string;
let fake: FakePlatforms;
const devs: DevChild[] = [];

async function startDev(): Promise<DevChild> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_LOG_LEVEL: 'warn',
    TELEGRAM_BOT_TOKEN: '42:kill',
    TELEGRAM_SECRET_TOKEN: SECRET,
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
  };
  for (const name of [
    'HOOKGATE_HOME',
    'HOOKGATE_MODEL_BASE_URL',
    'HOOKGATE_DEV_STATE',
    'HOOKGATE_ALLOWED_USERS',
    'HOOKGATE_API_TOKEN',
  ])
    delete env[name];
  const dev = await startDevChild(['--accept-hooks', '--home', home, '--state', stateDir], {
    cwd: root,
    env,
    // The state line (with the re-queued count) comes after the URL, maybe in a later chunk.
    ready: (output) => /\n {2}state: .*\n/.test(output),
    timeoutMs: 240_000,
  });
  devs.push(dev);
  return dev;
}

/** Telegram update `n` in chat `chat` (numeric ids: the same `n` is a redelivery). */
const telegram = async (dev: DevChild, chat: number, n: number, text: string): Promise<number> => {
  const res = await fetch(`${dev.url}/webhooks/telegram`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify({
      update_id: n,
      message: { message_id: n, from: { id: 77, first_name: 'K' }, chat: { id: chat, type: 'private' }, text },
    }),
  });
  await res.arrayBuffer();
  return res.status;
};
/** Reply texts the Telegram API fake accepted, per chat id. */
const replies = (chat: number): string[] =>
  fake
    .received('/telegram/bot42:kill/sendMessage')
    .filter(
      (r) => typeof r.status === 'number' && r.status < 300 && String((r.json as { chat_id: unknown }).chat_id) === String(chat),
    )
    .map((r) => (r.json as { text: string }).text);
/** `pre_llm_call` runs for turns whose user message is `text` (the hook logs each call's stdin). */
const hookCalls = async (text: string): Promise<number> => {
  const dir = join(home, 'calls');
  const inputs = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')));
  // A file still being written (or cut by kill -9 before stdin was read) is not a call yet.
  return inputs.filter((input) => userMessage(parseOr(input)) === text).length;
};
const parseOr = (text: string): { extra?: { user_message?: unknown } } => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};
const userMessage = (input: { extra?: { user_message?: unknown } }): unknown => input.extra?.user_message;

beforeAll(async () => {
  fake = await startFakePlatforms();
  root = await mkdtemp(join(tmpdir(), 'hookgate-fault5-'));
  home = join(root, 'home');
  stateDir = join(root, 'state');
  await mkdir(home, { recursive: true });
  // Writes down each call (its stdin), then holds while `hold` exists.
  const script = join(home, 'hold.sh');
  const q = (name: string) => JSON.stringify(join(home, name));
  await mkdir(join(home, 'calls'));
  // One file per call: hooks run side by side, and appends to one file would interleave.
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
  await rm(join(home ?? root, 'hold'), { force: true });
  await fake?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('fault 5: kill -9 of hookgate dev mid-turn', () => {
  it('every acknowledged turn is answered once after a restart on the same --state; redeliveries start no turn', async (ctx) => {
    const chats = Array.from({ length: CHATS }, (_, i) => 5_000 + i);
    const firstText = (chat: number) => `before ${chat}`;
    const inFlight = (chat: number) => `in flight ${chat}`;
    const lastText = (chat: number) => `after ${chat}`;
    const statuses: number[] = [];

    const first = await startDev();
    // One answered turn per chat, then CHATS turns held in flight.
    for (const chat of chats) statuses.push(await telegram(first, chat, chat * 10 + 1, firstText(chat)));
    await until(async () => chats.every((chat) => replies(chat).length === 1), Boolean);
    await writeFile(join(home, 'hold'), '');
    for (const chat of chats) statuses.push(await telegram(first, chat, chat * 10 + 2, inFlight(chat)));
    await until(async () => existsSync(join(home, 'held')), Boolean);
    const heldInHook = (await Promise.all(chats.map((chat) => hookCalls(inFlight(chat))))).reduce((a, b) => a + b, 0);
    await first.stop('SIGKILL');
    const repliedBeforeKill = chats.filter((chat) => replies(chat).length > 1).length;
    await rm(join(home, 'hold'));

    const second = await startDev();
    const requeued = Number(/(\d+) unanswered turn\(s\) re-queued/.exec(second.output())?.[1] ?? 0);
    await until(async () => chats.every((chat) => replies(chat).length >= 2), Boolean);
    const callsBeforeRedelivery = await Promise.all(
      chats.map(async (chat) => (await hookCalls(firstText(chat))) + (await hookCalls(inFlight(chat)))),
    );
    // The same updates again (a platform redelivering what it never saw acknowledged), then a new one per chat.
    const redelivered: number[] = [];
    for (const chat of chats) {
      redelivered.push(await telegram(second, chat, chat * 10 + 1, firstText(chat)));
      redelivered.push(await telegram(second, chat, chat * 10 + 2, inFlight(chat)));
    }
    for (const chat of chats) statuses.push(await telegram(second, chat, chat * 10 + 3, lastText(chat)));
    // FIFO per chat: once `after` is answered, a turn for a redelivery would have run before it.
    await until(async () => chats.every((chat) => replies(chat).length >= 3), Boolean);
    await settle(1_000);
    const callsAfterRedelivery = await Promise.all(
      chats.map(async (chat) => (await hookCalls(firstText(chat))) + (await hookCalls(inFlight(chat)))),
    );
    await second.stop('SIGKILL');

    const got = chats.map((chat) => replies(chat));
    const answered = chats.filter((chat, i) => got[i]!.some((t) => t.includes(inFlight(chat)))).length;
    const twice = got.reduce((sum, texts) => sum + texts.length - new Set(texts).size, 0);
    const wrong = chats.filter(
      (chat, i) =>
        got[i]!.length !== 3 ||
        !got[i]![0]!.includes(firstText(chat)) ||
        !got[i]![1]!.includes(inFlight(chat)) ||
        !got[i]![2]!.includes(lastText(chat)),
    );
    const extraTurns = callsAfterRedelivery.reduce((sum, n, i) => sum + n - callsBeforeRedelivery[i]!, 0);
    const acknowledged = statuses.filter((s) => s === 200).length;
    faultLine(
      ctx,
      `fault 5 kill-dev-mid-turn: ${CHATS} chats, ${CHATS} turns acknowledged and unanswered at kill -9 (${heldInHook} inside a hook, the rest queued${repliedBeforeKill ? `; ${repliedBeforeKill} replied before it` : ''}), ${requeued} re-queued on restart, ${answered}/${CHATS} answered after, ${CHATS - answered} lost, ${twice} twice; ${redelivered.length} redeliveries after restart -> ${redelivered.filter((s) => s === 200).length} x 200, ${extraTurns} new turns; ${acknowledged}/${statuses.length} messages acknowledged`,
    );
    // The log counts: each chat's two first turns ran the hook (the one killed inside it ran it twice).
    expect(callsBeforeRedelivery.filter((n) => n < 2)).toEqual([]);
    expect({ wrong, twice, extraTurns, requeued, acknowledged, redelivered: redelivered.filter((s) => s !== 200) }).toEqual({
      wrong: [],
      twice: 0,
      extraTurns: 0,
      requeued: CHATS - repliedBeforeKill,
      acknowledged: statuses.length,
      redelivered: [],
    });
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURN_CONCURRENCY } from '../../src/local/local-turns.ts';
import { enable, plugin, PLUGIN_HOME_PRELUDE, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * `hookgate dev` runs several chats' turns at once: chats whose turns take long (a long command,
 * a slow hook) do not hold another chat's turn. With two turn pollers, two such chats held every
 * other chat until theirs ended.
 */
let home: TempHome;
let dev: DevChild | undefined;

beforeAll(async () => {
  home = await tempHome({
    'config.yaml': enable('slow'),
    ...plugin(
      'slow',
      `${PLUGIN_HOME_PRELUDE}
      // A turn whose message says "hold" never gets past its hook: a turn that takes as long as it likes.
      ctx.register_hook('pre_llm_call', (k: any) => {
        if (!String(k.user_message).startsWith('hold')) return;
        appendFileSync(join(home, 'held.log'), k.session_id + '\\n');
        return new Promise(() => {});
      });`,
    ),
  });
});
afterAll(async () => {
  await dev?.stop('SIGKILL');
  await home?.remove();
});

describe('hookgate dev turn concurrency', () => {
  it("answers a chat while four other chats' turns are still running", async () => {
    // The state in memory (a --state folder would be made in the working directory).
    dev = await startDevChild(['--home', home.path], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        HOOKGATE_MODEL_BASE_URL: '',
        HOOKGATE_DEV_STATE: 'memory',
      },
      timeoutMs: 60_000,
    });
    const { url } = dev;
    const say = async (chat: string, text: string) => {
      const res = await fetch(`${url}/webhooks/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: chat, user_id: 'u', text }),
      });
      expect(res.status).toBe(202);
    };
    // More than the two it once ran, fewer than it runs now.
    const held = 4;
    expect(DEV_TURN_CONCURRENCY).toBeGreaterThan(held);
    for (let i = 0; i < held; i++) await say(`slow-${i}`, 'hold on');
    const heldLog = async () => (await readFile(join(home.path, 'held.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    await until(async () => (await heldLog()).length === held, `${held} turns inside the slow hook`, { context: dev.output });

    await say('quick', 'hello');
    const replies = await until(
      async () => {
        const res = await fetch(`${url}/webhooks/local/messages?chat_id=quick`);
        const messages = (await res.json()) as { text: string }[];
        return messages.length > 0 ? messages : undefined;
      },
      'the quick chat to be answered',
      { context: dev.output },
    );
    expect(replies.length).toBeGreaterThan(0);
    expect(await heldLog()).toHaveLength(held); // the slow ones are still in their hook
  });
});

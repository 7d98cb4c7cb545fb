import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable, plugin, PLUGIN_HOME_PRELUDE, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * Stopping `hookgate dev` with turns in flight (issue #14 item 3, issue #12 item 7): the
 * gateway finalizes each running session once (hook-semantics §1.13.1: platform `gateway`,
 * reason `shutdown`) and the process ends even though a hook never returns and keeps the
 * event loop busy.
 */
let home: TempHome;
let dev: DevChild | undefined;

beforeAll(async () => {
  home = await tempHome({
    'config.yaml': enable('stuck'),
    ...plugin(
      'stuck',
      `${PLUGIN_HOME_PRELUDE}
      // Every turn hangs here for good, with a timer keeping the event loop alive.
      ctx.register_hook('pre_llm_call', (k: any) => {
        appendFileSync(join(home, 'started.log'), k.session_id + '\\n');
        return new Promise(() => { setInterval(() => {}, 1000); });
      });
      ctx.register_hook('on_session_finalize', (k: any) => { appendFileSync(join(home, 'finalize.jsonl'), JSON.stringify(k) + '\\n'); });`,
    ),
  });
});
afterAll(async () => {
  await dev?.stop('SIGKILL');
  await home?.remove();
});

async function lines(file: string, dir = home.path): Promise<string[]> {
  return (await readFile(join(dir, file), 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

describe('hookgate dev shutdown', () => {
  it('SIGTERM with two turns stuck in a hook: on_session_finalize once per session, then the process ends', async () => {
    dev = await startDevChild(['--home', home.path], {
      cwd: process.cwd(),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOOKGATE_MODEL_BASE_URL: '' },
    });
    try {
      const { url } = dev;
      for (const chat of ['a', 'b']) {
        const res = await fetch(`${url}/webhooks/local`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chat_id: chat, user_id: 'u', text: 'hi' }),
        });
        expect(res.status).toBe(202);
      }
      await until(async () => (await lines('started.log')).length >= 2, 'both turns started');
      dev.child.kill('SIGTERM');
      expect(await dev.waitForExit()).toBe(0);
    } finally {
      await dev.stop('SIGKILL');
    }
    const started = await lines('started.log');
    const finalized = (await lines('finalize.jsonl')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(finalized.map((k) => k.session_id).sort()).toEqual([...started].sort());
    for (const kwargs of finalized) {
      expect(kwargs).toMatchObject({ platform: 'gateway', reason: 'shutdown' });
      expect(Object.keys(kwargs)).toEqual(['session_id', 'platform', 'reason', 'telemetry_schema_version']);
    }
  }, 60_000);

  it('SIGTERM while a turn finishes: its last observer events still reach the observer before the process ends', async () => {
    const slow = await tempHome({
      'config.yaml': enable('slow'),
      ...plugin(
        'slow',
        `${PLUGIN_HOME_PRELUDE}
      const note = (file: string, k: any) => appendFileSync(join(home, file), k.session_id + '\\n');
      // The turn waits here until the test lets it go, once dev has begun to stop: it ends during the stop.
      ctx.register_hook('pre_llm_call', async (k: any) => {
        note('started.log', k);
        for (let waited = 0; !existsSync(join(home, 'release')) && waited < 10_000; waited += 20)
          await new Promise((resolve) => setTimeout(resolve, 20));
      });
      ctx.register_hook('on_session_end', (k: any) => note('ended.log', k));`,
      ),
    });
    const child = await startDevChild(['--home', slow.path], {
      cwd: process.cwd(),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOOKGATE_MODEL_BASE_URL: '' },
    });
    const read = (file: string) => lines(file, slow.path);
    try {
      const res = await fetch(`${child.url}/webhooks/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: 'late', user_id: 'u', text: 'hi' }),
      });
      expect(res.status).toBe(202);
      await until(async () => (await read('started.log')).length >= 1, 'the turn started');
      child.child.kill('SIGTERM');
      await until(() => child.stdout().includes('SIGTERM, stopping'), 'dev stopping');
      await writeFile(join(slow.path, 'release'), '');
      expect(await child.waitForExit()).toBe(0);
      // on_session_end is an observer event: published by the turn as it ends, run by the observer behind SNS → SQS.
      expect(await read('ended.log')).toEqual(await read('started.log'));
    } finally {
      await child.stop('SIGKILL');
      await slow.remove();
    }
  }, 60_000);
});

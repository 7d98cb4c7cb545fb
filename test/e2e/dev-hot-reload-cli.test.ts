import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * The real `hookgate dev` binary: hot reload is on by default (a plugin edit reaches the next
 * turn, announced on stdout), and `--no-watch` turns it off (the banner says so).
 */
const PLUGIN = (word: string) =>
  `export function register(ctx: any) { ctx.register_hook('transform_llm_output', ({ response_text }: any) => '${word} ' + response_text); }\n`;

const homes: string[] = [];
const devs: DevChild[] = [];

afterAll(async () => {
  for (const dev of devs) await dev.stop('SIGKILL');
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

async function startDev(extra: string[]): Promise<{ url: string; home: string; output: () => string }> {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-reload-cli-'));
  homes.push(home);
  await mkdir(join(home, 'plugins', 'word'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [word]\n');
  await writeFile(join(home, 'plugins', 'word', 'plugin.yaml'), 'name: word\n');
  await writeFile(join(home, 'plugins', 'word', 'index.ts'), PLUGIN('first'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_LOG_LEVEL: 'warn', HOOKGATE_DEV_STATE: 'memory' };
  delete env.HOOKGATE_HOME;
  delete env.HOOKGATE_MODEL_BASE_URL;
  const dev = await startDevChild(['--home', home, ...extra], {
    cwd: home,
    env,
    ready: (output) => output.includes('hot reload:'),
    timeoutMs: 40_000,
  });
  devs.push(dev);
  return { url: dev.url, home, output: dev.output };
}

async function chat(url: string, text: string): Promise<string> {
  const read = async () => (await (await fetch(`${url}/webhooks/local/messages?chat_id=c`)).json()) as { text: string }[];
  const before = (await read()).length;
  const posted = await fetch(`${url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: 'c', user_id: 'u', text }),
  });
  expect(posted.status).toBe(202);
  let replies: { text: string }[] = [];
  await until(async () => (replies = await read()).length > before, `a reply to ${text}`);
  return replies.at(-1)!.text;
}

describe('hookgate dev hot reload (the real binary)', () => {
  it('reloads an edited plugin and says so', async () => {
    const dev = await startDev([]);
    expect(dev.output()).toContain('hot reload: on');
    expect(await chat(dev.url, 'one')).toBe('first You said: one');
    await writeFile(join(dev.home, 'plugins', 'word', 'index.ts'), PLUGIN('second'));
    await until(
      () => dev.output().includes('hookgate dev: hooks reloaded (plugins/word/index.ts changed): 1 plugin (word)'),
      'the reload line',
      {
        timeoutMs: 40_000,
      },
    );
    expect(await chat(dev.url, 'two')).toBe('second You said: two');
  }, 90_000);

  it('--no-watch turns it off', async () => {
    const dev = await startDev(['--no-watch']);
    expect(dev.output()).toContain('  hot reload: off');
    // The console's hooks panel (filled from this API) says approvals wait for a restart.
    const panel = (await (await fetch(`${dev.url}/console/api/hooks`)).json()) as { reload: { watching: boolean } };
    expect(panel.reload).toEqual({ watching: false });
  }, 90_000);
});

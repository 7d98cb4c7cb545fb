import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/until.ts';

/**
 * A hook that starts work it does not await, which then rejects, must not take `hookgate dev`
 * down (a hook never stops the gateway): Node ends a process on an unhandled rejection unless
 * someone handles it. The real `hookgate dev` child, with a plugin whose `pre_gateway_dispatch`
 * callback leaves a rejected promise behind at every message.
 */
const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));

let root: string;
let child: ChildProcess;
let output = '';
let url: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookgate-stray-'));
  const home = join(root, 'home');
  await mkdir(join(home, 'plugins', 'floating'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [floating]\n');
  await writeFile(join(home, 'plugins', 'floating', 'plugin.yaml'), 'name: floating\nversion: 1.0.0\n');
  await writeFile(
    join(home, 'plugins', 'floating', 'index.mjs'),
    "export function register(ctx) {\n  ctx.register_hook('pre_gateway_dispatch', () => {\n    Promise.reject(new Error('left behind by the floating plugin, key sk-floatingSecretValue0123456789'));\n  });\n}\n",
  );
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NO_COLOR: '1' };
  for (const name of ['HOOKGATE_HOME', 'HOOKGATE_MODEL_BASE_URL', 'HOOKGATE_ALLOWED_USERS', 'HOOKGATE_API_TOKEN'])
    delete env[name];
  env.HOOKGATE_DEV_STATE = 'memory';
  child = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--home', home, '--no-watch'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`hookgate dev exited with ${child.exitCode}:\n${output}`);
      url = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? '';
      return url !== '';
    },
    'the dev server banner',
    { timeoutMs: 60_000 },
  );
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(root, { recursive: true, force: true });
});

it('keeps serving after a hook leaves a rejected promise behind, and says so on stderr, redacted', async () => {
  const post = (text: string) =>
    fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'c1', user_id: 'u1', text }),
    });
  expect((await post('first')).status).toBe(202);
  await until(() => output.includes('left behind by the floating plugin'), 'the stray rejection reported', {
    timeoutMs: 20_000,
  });
  expect(output).toMatch(/hookgate dev: a promise rejected with no handler .*going on: .*left behind by the floating plugin/);
  // The reason is a hook's text: redacted as any hook output in a log line.
  expect(output).not.toContain('sk-floatingSecretValue0123456789');
  expect(child.exitCode).toBeNull();
  expect((await post('second')).status).toBe(202);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
}, 60_000);

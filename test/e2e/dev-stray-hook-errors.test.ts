import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * A hook that leaves work behind which then fails — a promise it does not await rejects, a timer
 * it set throws — must not take `hookgate dev` down (a hook never stops the gateway): Node ends a
 * process on either unless someone handles it. The real `hookgate dev` child, with a plugin whose
 * `register` sets a throwing timer and whose `pre_gateway_dispatch` callback leaves a rejected
 * promise and a throwing timer behind at every message, and a gateway hook whose
 * `gateway:startup` handler sets a throwing timer.
 */
let root: string;
let dev: DevChild;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookgate-stray-'));
  const home = join(root, 'home');
  await mkdir(join(home, 'plugins', 'floating'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [floating]\n');
  await writeFile(join(home, 'plugins', 'floating', 'plugin.yaml'), 'name: floating\nversion: 1.0.0\n');
  await writeFile(
    join(home, 'plugins', 'floating', 'index.mjs'),
    `export function register(ctx) {
  setTimeout(() => { throw new Error('a timer left by register threw'); }, 1);
  ctx.register_hook('pre_gateway_dispatch', () => {
    Promise.reject(new Error('left behind by the floating plugin, key sk-floatingSecretValue0123456789'));
    setTimeout(() => { throw new Error('a timer of the floating plugin threw, key sk-floatingTimerSecret0123456789'); }, 1);
  });
}
`,
  );
  await mkdir(join(home, 'hooks', 'ticking'), { recursive: true });
  await writeFile(join(home, 'hooks', 'ticking', 'HOOK.yaml'), 'name: ticking\nevents:\n  - gateway:startup\n');
  await writeFile(
    join(home, 'hooks', 'ticking', 'handler.mjs'),
    "export function handle() {\n  setTimeout(() => { throw new Error('a timer of the ticking hook threw'); }, 1);\n}\n",
  );
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NO_COLOR: '1' };
  for (const name of ['HOOKGATE_HOME', 'HOOKGATE_MODEL_BASE_URL', 'HOOKGATE_ALLOWED_USERS', 'HOOKGATE_API_TOKEN'])
    delete env[name];
  env.HOOKGATE_DEV_STATE = 'memory';
  dev = await startDevChild(['--home', home, '--no-watch'], { cwd: root, env });
}, 90_000);

afterAll(async () => {
  await dev?.stop();
  await rm(root, { recursive: true, force: true });
});

it('keeps serving after a hook leaves a rejected promise or a throwing timer behind, and says so on stderr, naming the hook, redacted', async () => {
  const post = (text: string) =>
    fetch(`${dev.url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'c1', user_id: 'u1', text }),
    });
  expect((await post('first')).status).toBe(202);
  await until(
    () =>
      dev.output().includes('left behind by the floating plugin') &&
      dev.output().includes('a timer of the floating plugin threw'),
    'the stray rejection and exception reported',
    { timeoutMs: 20_000 },
  );
  expect(dev.output()).toMatch(
    /hookgate dev: a promise rejected with no handler \(plugin floating's unawaited work\?\), going on: .*left behind by the floating plugin/,
  );
  expect(dev.output()).toContain(
    'hookgate dev: work plugin floating left behind threw, going on: a timer of the floating plugin threw',
  );
  // From before the first message: register's timer and the gateway hook's, at start-up.
  expect(dev.output()).toContain(
    'hookgate dev: work plugin floating left behind threw, going on: a timer left by register threw',
  );
  expect(dev.output()).toContain(
    'hookgate dev: work gateway hook ticking left behind threw, going on: a timer of the ticking hook threw',
  );
  // The reason is a hook's text: redacted as any hook output in a log line.
  expect(dev.output()).not.toContain('sk-floatingSecretValue0123456789');
  expect(dev.output()).not.toContain('sk-floatingTimerSecret0123456789');
  expect(dev.child.exitCode).toBeNull();
  expect((await post('second')).status).toBe(202);
  expect((await fetch(`${dev.url}/healthz`)).status).toBe(200);
}, 60_000);

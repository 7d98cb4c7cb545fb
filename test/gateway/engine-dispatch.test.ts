import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';

/**
 * The gateway with the real hook engine over a real hooks home on disk: a plugin decides
 * pre_gateway_dispatch, a gateway hook polices commands, and observers (run in-process,
 * the engine's default) record the /new lifecycle.
 */
let aws: RunningEmulators;
let home: string;
let engine: LoadedHookEngine;
let gw: GatewayHarness;
const seen: string[] = [];

const PLUGIN = `
export function register(ctx) {
  ctx.register_hook('pre_gateway_dispatch', function route({ event }) {
    if (event.text === 'spam') return { action: 'skip', reason: 'spam filter' };
    if (event.text === 'rewrite me') return { action: 'rewrite', text: 'rewritten by plugin' };
    if (event.text === 'bad rewrite') return { action: 'rewrite', text: 42 };
    return undefined;
  });
  ctx.register_hook('pre_gateway_dispatch', function later({ event }) {
    return event.text === 'bad rewrite' ? { action: 'skip' } : { action: 'allow' };
  });
  for (const hook of ['on_session_finalize', 'on_session_reset']) {
    ctx.register_hook(hook, (kwargs) => void globalThis.__hookgateSeen.push(hook + ' ' + JSON.stringify(kwargs)));
  }
}
`;
const GATEWAY_HOOK = `
export function handle(type, context) {
  globalThis.__hookgateSeen.push(type + ' ' + JSON.stringify(context));
  if (type === 'command:status' && context.user_id === 'blocked') return { decision: 'deny', message: 'no status for you' };
  return undefined;
}
`;

beforeAll(async () => {
  (globalThis as { __hookgateSeen?: string[] }).__hookgateSeen = seen;
  home = await mkdtemp(join(tmpdir(), 'hookgate-gw-engine-'));
  await mkdir(join(home, 'plugins', 'router'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled:\n    - router\n');
  await writeFile(join(home, 'plugins', 'router', 'plugin.yaml'), 'name: router\n');
  await writeFile(join(home, 'plugins', 'router', 'index.mjs'), PLUGIN);
  await mkdir(join(home, 'hooks', 'audit'), { recursive: true });
  await writeFile(
    join(home, 'hooks', 'audit', 'HOOK.yaml'),
    'name: audit\nevents:\n  - command:*\n  - session:end\n  - session:reset\n',
  );
  await writeFile(join(home, 'hooks', 'audit', 'handler.mjs'), GATEWAY_HOOK);
  aws = await startTestAws();
  engine = await createHookEngine({ home, gatewayHooks: true, print: () => {} });
  gw = gatewayHarness(aws, {}, engine);
});
afterAll(async () => {
  await engine?.close();
  gw?.plane.destroy();
  await aws?.stop();
  await rm(home, { recursive: true, force: true });
});

const say = async (chatId: string, text: string, userId = 'u1') => {
  const res = await gw.request('/webhooks/local', { body: JSON.stringify({ chat_id: chatId, user_id: userId, text }) });
  expect(res.status).toBe(202);
};
const replies = async (chatId: string) =>
  ((await (await gw.request(`/webhooks/local/messages?chat_id=${chatId}`, { method: 'GET' })).json()) as { text: string }[]).map(
    (m) => m.text,
  );

describe('dispatch with the real engine', () => {
  it('skip, rewrite and allow from a plugin take effect end to end', async () => {
    await gw.drainTurns();
    await say('e1', 'spam');
    await say('e1', 'rewrite me');
    await say('e1', 'plain');
    await say('e1', 'bad rewrite'); // a non-string rewrite ends the scan: the later skip is not honoured
    const turns = await gw.drainTurns();
    expect(turns.map((t) => t.kind === 'message' && t.event.text)).toEqual(['rewritten by plugin', 'plain', 'bad rewrite']);
    expect(await replies('e1')).toEqual([]);
  });

  it('a command:* gateway hook can deny a command', async () => {
    await say('e2', '/status', 'blocked');
    expect(await replies('e2')).toEqual(['no status for you']);
    expect(
      seen.some((line) =>
        line.startsWith(
          'command:status {"platform":"local","user_id":"blocked","command":"status","raw_command":"status","args":"","raw_args":""}',
        ),
      ),
    ).toBe(true);
  });

  it('/new fires on_session_finalize, session:end, session:reset, on_session_reset in that order', async () => {
    seen.length = 0;
    const key = 'local:e3';
    const { session } = await gw.plane.sessions.resolve(key, {
      platform: 'local',
      chat_id: 'e3',
      thread_id: '',
      user_id: 'u1',
      chat_type: 'dm',
    });
    await say('e3', '/new');
    const order = seen.map((line) => line.split(' ')[0]).filter((type) => type !== 'command:new');
    expect(order).toEqual(['on_session_finalize', 'session:end', 'session:reset', 'on_session_reset']);
    const finalize = JSON.parse(
      seen.find((l) => l.startsWith('on_session_finalize'))!.slice('on_session_finalize '.length),
    ) as Record<string, unknown>;
    expect(finalize).toMatchObject({
      session_id: session.session_id,
      platform: 'local',
      reason: 'new_session',
      old_session_id: session.session_id,
    });
    expect(finalize.telemetry_schema_version).toBe('hermes.observer.v1');
    expect(await replies('e3')).toEqual(['✨ New session started.']);
  });
});

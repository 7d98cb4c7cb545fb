import { chmod, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import type { ReloadOutcome } from '../../src/local/hooks-reloader.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';
import { chatLocally } from '../support/local-chat.ts';

/**
 * Hot reload through the real dev runtime: a hooks home in a temp folder, the gateway over
 * HTTP (local platform), the emulators, the turn consumer with the stand-in model. Each
 * step waits for the reload's outcome event (`dev.hotReload.next`), never for a time.
 */

let home: TempHome;
let dev: DevRuntime;
const printed: string[] = [];
let events: ConsoleStream;

const GREET = (prefix: string) => `export const PREFIX = ${JSON.stringify(prefix)};\n`;
const GREET_INDEX = `import { PREFIX } from './prefix.ts';
export function register(ctx: any) {
  ctx.register_hook('transform_llm_output', ({ response_text }: any) => \`\${PREFIX}: \${response_text}\`);
}
`;
/** A .mjs plugin with a .mjs helper: Node's module cache must not hand back the old helper. */
const SHOUT_INDEX = `import { word } from './word.mjs';
export function register(ctx) { ctx.register_command('shout', () => word(), 'says the word'); }
`;

beforeAll(async () => {
  home = await tempHome({
    // An ES module scope: the .ts files a plugin imports are reloaded too (docs/dev-server.md).
    'package.json': '{"type": "module"}\n',
    'config.yaml': configYaml(),
    'plugins/greet/plugin.yaml': 'name: greet\n',
    'plugins/greet/index.ts': GREET_INDEX,
    'plugins/greet/prefix.ts': GREET('v1'),
    'plugins/shout/plugin.yaml': 'name: shout\n',
    'plugins/shout/index.mjs': SHOUT_INDEX,
    'plugins/shout/word.mjs': `export const word = () => 'first word';\n`,
    'agent-hooks/block.sh': `#!/bin/sh\ncat > /dev/null\necho '{"decision": "block", "reason": "blocked by the approved shell hook"}'\n`,
  });
  await chmod(join(home.path, 'agent-hooks', 'block.sh'), 0o755);
  // Discord on: the banner's answer-window warning names the hooks that run before Discord's answer.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_HOME: home.path,
    DISCORD_PUBLIC_KEY: '0'.repeat(64),
    DISCORD_APPLICATION_ID: '999',
  };
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_ACCEPT_HOOKS;
  delete env.HERMES_ACCEPT_HOOKS;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    watch: true,
    print: (text) => printed.push(...text.split('\n')),
    // Quiet by default; a reload passes its own (held) output, which these defaults do not override.
    createEngine: (options) =>
      createHookEngine({ print: () => {}, logger: createMemoryLogger(), ...options, onRun: recordHookRun }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
  events = await openConsoleStream(dev.url);
}, 60_000);

afterAll(async () => {
  events?.close();
  await dev?.stop();
  await home?.remove();
});

function configYaml(options: { shell?: boolean } = {}): string {
  const shell = options.shell
    ? `hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ${join(home?.path ?? '', 'agent-hooks', 'block.sh')}\n`
    : '';
  return `plugins:\n  enabled: [greet, shout]\n${shell}`;
}

const chat = (chatId: string, text: string) => chatLocally(dev.url, chatId, text);

/** Starts waiting for the next outcome that `accept`s, then makes the change. */
async function reloadAfter(change: () => Promise<void>, accept: (outcome: ReloadOutcome) => boolean): Promise<ReloadOutcome> {
  const outcome = dev.hotReload!.next(accept);
  await change();
  return outcome;
}

describe('hookgate dev hot reload', () => {
  it('edits a file a plugin imports between two messages: the second turn uses the new code', async () => {
    expect(printed).toContain('  hot reload: on (plugins, gateway hooks, config.yaml, the allowlist; --no-watch to turn it off)');
    expect(await chat('c1', 'hello')).toBe('v1: You said: hello');
    const outcome = await reloadAfter(
      () => home.write({ 'plugins/greet/prefix.ts': GREET('v2') }),
      (o) => o.changed.includes('plugins/greet/prefix.ts'),
    );
    expect(outcome).toMatchObject({ ok: true, changed: ['plugins/greet/prefix.ts'] });
    expect(outcome.loaded?.plugins).toEqual(['greet', 'shout']);
    expect(await chat('c1', 'hello again')).toBe('v2: You said: hello again');
    expect(printed).toContain(`hookgate dev: ${outcome.message}`);
    expect(outcome.message).toMatch(/^hooks reloaded \(plugins\/greet\/prefix\.ts changed\): 2 plugins \(greet, shout\)/);
    const event = await events.next((e) => e.event === 'reload' && e.data.at === outcome.at);
    expect(event.data).toMatchObject({ kind: 'reload', ok: true, message: outcome.message });
  });

  it('a .mjs plugin: its slash command follows the new code of the file it imports', async () => {
    expect(await chat('c2', '/shout')).toBe('first word');
    await reloadAfter(
      () => home.write({ 'plugins/shout/word.mjs': `export const word = () => 'second word';\n` }),
      (o) => o.ok && o.changed.includes('plugins/shout/word.mjs'),
    );
    expect(await chat('c2', '/shout')).toBe('second word');
  });

  it('logs, data files and editor temp files never set off a reload', async () => {
    const outcome = await reloadAfter(
      async () => {
        await home.write({
          'logs/activity.log': 'a line\n',
          'plugins/greet/state.json': '{"n":1}',
          'plugins/greet/.index.ts.swp': 'x',
          'plugins/greet/index.ts~': 'x',
          'plugins/greet/logs/x.ts': 'x',
          'BOOT.md': '# boot\n',
        });
        await home.write({ 'plugins/greet/prefix.ts': GREET('v3') });
      },
      (o) => o.changed.includes('plugins/greet/prefix.ts'),
    );
    expect(outcome.changed).toEqual(['plugins/greet/prefix.ts']);
    expect(await chat('c1', 'third')).toBe('v3: You said: third');
  });

  it('adds a gateway hook: it fires on the next turn', async () => {
    const seen = join(home.path, 'ping-seen.txt');
    const outcome = await reloadAfter(
      async () => {
        // Made beside the hooks folder and moved in at once, as a copied folder would arrive.
        await home.write({
          'staging/ping/HOOK.yaml': 'name: ping\nevents:\n  - agent:start\n',
          'staging/ping/handler.ts': `import { appendFileSync } from 'node:fs';\nexport function handle(type: string) { appendFileSync(${JSON.stringify(seen)}, type + '\\n'); }\n`,
        });
        await mkdir(join(home.path, 'hooks'), { recursive: true });
        await rename(join(home.path, 'staging', 'ping'), join(home.path, 'hooks', 'ping'));
      },
      (o) => o.ok && (o.loaded?.gatewayHooks ?? []).includes('ping'),
    );
    expect(outcome.message).toContain('added: gateway hook ping');
    expect(existsSync(seen)).toBe(false);
    await chat('c3', 'fire the gateway hook');
    await until(() => existsSync(seen), 'the new gateway hook to run');
    expect(await readFile(seen, 'utf8')).toContain('agent:start');
  });

  it("a gateway hook on a command that reloads in prints Discord's answer-window warning again, naming it", async () => {
    expect(printed.some((line) => line.startsWith('hookgate dev: discord:'))).toBe(false);
    await reloadAfter(
      () =>
        home.write({
          'hooks/status-log/HOOK.yaml': 'name: status-log\nevents:\n  - command:status\n',
          'hooks/status-log/handler.ts': 'export function handle() {}\n',
        }),
      (o) => o.ok && (o.loaded?.gatewayHooks ?? []).includes('status-log'),
    );
    const warning = printed.find((line) => line.startsWith('hookgate dev: discord:'));
    expect(warning).toMatch(/these run before the answer: .*gateway hooks on command:status/);
    // A reload that leaves the list as it was says nothing more.
    await reloadAfter(
      () => home.write({ 'hooks/status-log/handler.ts': 'export function handle() { return; }\n' }),
      (o) => o.ok && o.changed.includes('hooks/status-log/handler.ts'),
    );
    expect(printed.filter((line) => line.startsWith('hookgate dev: discord:'))).toHaveLength(1);
    await reloadAfter(
      () => rm(join(home.path, 'hooks', 'status-log'), { recursive: true, force: true }),
      (o) => o.ok && !(o.loaded?.gatewayHooks ?? []).includes('status-log'),
    );
  });

  it('a broken plugin keeps the previous hooks and says why; fixed, it reloads', async () => {
    const broken = await reloadAfter(
      () => home.write({ 'plugins/greet/prefix.ts': 'export const PREFIX = ;\n' }),
      (o) => o.changed.includes('plugins/greet/prefix.ts'),
    );
    expect(broken.ok).toBe(false);
    expect(broken.message).toMatch(/^reload failed, still running the previous hooks: /);
    expect(broken.message).toContain(join(home.path, 'plugins', 'greet', 'index.ts'));
    expect(broken.message).toContain('plugin greet failed to load');
    expect(broken.message).toContain('prefix.ts');
    // One log line, naming the file and the error.
    const line = printed.find((l) => l.startsWith('hookgate dev: reload failed'))!;
    expect(line).toBe(`hookgate dev: ${broken.message}`);
    expect(line).not.toContain('\n');
    const event = await events.next((e) => e.event === 'reload' && e.data.ok === false);
    expect(event.data.message).toBe(broken.message);
    // The console's hooks panel says so too (its API: the page is filled from it).
    const panel = (await (await fetch(`${dev.url}/console/api/hooks`)).json()) as {
      reload: { watching: boolean; last?: { ok: boolean; message: string } };
    };
    expect(panel.reload.last).toMatchObject({ ok: false, message: broken.message });

    expect(await chat('c1', 'still v3?')).toBe('v3: You said: still v3?');

    const fixed = await reloadAfter(
      () => home.write({ 'plugins/greet/prefix.ts': GREET('v4') }),
      (o) => o.changed.includes('plugins/greet/prefix.ts'),
    );
    expect(fixed.ok).toBe(true);
    expect(await chat('c1', 'fixed')).toBe('v4: You said: fixed');
  });

  it('a register() that throws, an invalid config.yaml and a bad HOOK.yaml each keep the previous hooks', async () => {
    const throwing = await reloadAfter(
      () => home.write({ 'plugins/greet/index.ts': `export function register() { throw new Error('register exploded'); }\n` }),
      (o) => o.changed.includes('plugins/greet/index.ts'),
    );
    expect(throwing.ok).toBe(false);
    expect(throwing.message).toContain(
      `${join(home.path, 'plugins', 'greet', 'index.ts')}: plugin greet failed to load: register exploded`,
    );
    await reloadAfter(
      () => home.write({ 'plugins/greet/index.ts': GREET_INDEX }),
      (o) => o.ok,
    );

    const config = await reloadAfter(
      () => home.write({ 'config.yaml': 'plugins:\n  enabled: [greet\n' }),
      (o) => o.changed.includes('config.yaml'),
    );
    expect(config.ok).toBe(false);
    expect(config.message).toContain(`${join(home.path, 'config.yaml')}:`);
    expect(config.message).toContain('not valid YAML');
    expect(await chat('c1', 'config')).toBe('v4: You said: config');
    await reloadAfter(
      () => home.write({ 'config.yaml': configYaml() }),
      (o) => o.ok,
    );

    const manifest = await reloadAfter(
      () => home.write({ 'hooks/ping/HOOK.yaml': 'name: ping\nevents: agent:start\n' }),
      (o) => o.changed.includes('hooks/ping/HOOK.yaml'),
    );
    expect(manifest.ok).toBe(false);
    expect(manifest.message).toContain(join(home.path, 'hooks', 'ping', 'HOOK.yaml'));
    expect(manifest.loaded?.gatewayHooks).toEqual(['ping']);
    await reloadAfter(
      () => home.write({ 'hooks/ping/HOOK.yaml': 'name: ping\nevents:\n  - agent:start\n' }),
      (o) => o.ok,
    );
  });

  it('approving a shell hook (the allowlist file, through the console) makes it run on the next turn', async () => {
    const added = await reloadAfter(
      () => home.write({ 'config.yaml': configYaml({ shell: true }) }),
      (o) => o.changed.includes('config.yaml'),
    );
    // Not allowlisted yet: loaded config, no shell hook registered (and no prompt).
    expect(added).toMatchObject({ ok: true });
    expect(added.loaded?.shellHooks).toEqual([]);
    expect(await chat('c4', 'run: echo hi')).toBe('v4: hi');

    const command = join(home.path, 'agent-hooks', 'block.sh');
    const approved = dev.hotReload!.next((o) => o.changed.includes('shell-hooks-allowlist.json'));
    const res = await fetch(`${dev.url}/console/api/hooks/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hookgate-console': '1' },
      body: JSON.stringify({ event: 'pre_tool_call', command }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toContain('hookgate dev reloads its hooks with it');
    const outcome = await approved;
    expect(outcome.ok).toBe(true);
    expect(outcome.loaded?.shellHooks).toEqual([`shell_hook[pre_tool_call:${command}]`]);
    expect(await chat('c4', 'run: echo hi')).toContain('blocked by the approved shell hook');

    const panel = (await (await fetch(`${dev.url}/console/api/hooks`)).json()) as {
      reload: { watching: boolean; last?: { ok: boolean } };
    };
    expect(panel.reload).toMatchObject({ watching: true, last: { ok: true } });
  });

  it('revoking it (through the console) unregisters it on the next turn: dev reloads, where a deployment keeps it until restart', async () => {
    const command = join(home.path, 'agent-hooks', 'block.sh');
    expect(await chat('c4', 'run: echo hi')).toContain('blocked by the approved shell hook'); // still approved from the test before
    const revoked = dev.hotReload!.next((o) => o.changed.includes('shell-hooks-allowlist.json'));
    const res = await fetch(`${dev.url}/console/api/hooks/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hookgate-console': '1' },
      body: JSON.stringify({ event: 'pre_tool_call', command }),
    });
    expect(res.status).toBe(200);
    const outcome = await revoked;
    expect(outcome.ok).toBe(true);
    expect(outcome.loaded?.shellHooks).toEqual([]);
    expect(await chat('c4', 'run: echo hi')).toBe('v4: hi');
  });

  it('a reload that takes a plugin out of plugins.enabled prints guard off; putting it back prints guard on', async () => {
    const config = await readFile(join(home.path, 'config.yaml'), 'utf8');
    await reloadAfter(
      () => home.write({ 'config.yaml': config.replace('enabled: [greet, shout]', 'enabled: [shout]') }),
      (o) => o.ok && o.changed.includes('config.yaml'),
    );
    const off = 'hookgate dev: ✗ guard off: plugin greet does not run now: not enabled in config.yaml';
    await until(() => printed.includes(off), 'the guard-off line for plugin greet');
    await reloadAfter(
      () => home.write({ 'config.yaml': config }),
      (o) => o.ok && o.changed.includes('config.yaml'),
    );
    await until(() => printed.includes('hookgate dev: ✓ guard on: plugin greet runs now'), 'the guard-on line for plugin greet');
  });

  it('a removed plugin folder is unloaded', async () => {
    const outcome = await reloadAfter(
      () => rm(join(home.path, 'plugins', 'shout'), { recursive: true, force: true }),
      (o) => !(o.loaded?.plugins ?? []).includes('shout'),
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toContain('removed: plugin shout, command /shout');
    expect(await chat('c2', '/shout')).not.toBe('second word');
  });
});

interface ConsoleStream {
  next(
    accept: (event: { event: string; data: Record<string, unknown> }) => boolean,
  ): Promise<{ event: string; data: Record<string, unknown> }>;
  close(): void;
}

/** Reads the console's server-sent events over HTTP; resolves once the stream said hello. */
async function openConsoleStream(url: string): Promise<ConsoleStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/console/events`, { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: { event: string; data: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let hello: () => void = () => {};
  const greeted = new Promise<void>((resolve) => (hello = resolve));
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const chunk = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(chunk)?.[1];
        const data = /^data: ?(.*)$/m.exec(chunk)?.[1];
        if (!event || data === undefined) continue;
        if (event === 'hello') hello();
        seen.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        for (const wake of waiters) wake();
      }
    }
  })().catch(() => {});
  await greeted;
  return {
    next: (accept) =>
      new Promise((resolve) => {
        const look = () => {
          const found = seen.find(accept);
          if (!found) return;
          waiters.delete(look);
          resolve(found);
        };
        waiters.add(look);
        look();
      }),
    close: () => controller.abort(),
  };
}

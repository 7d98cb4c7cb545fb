import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { tempHome, type TempHome } from './support/temp-home.ts';

let home: TempHome | undefined;
let engine: LoadedHookEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await home?.remove();
  home = undefined;
  engine = undefined;
});

async function load(files: Record<string, string>, gatewayHooks = true) {
  home = await tempHome(files);
  const logger = createMemoryLogger();
  const lines: string[] = [];
  engine = await createHookEngine({ home: home.path, logger, gatewayHooks, env: {}, print: (line) => lines.push(line) });
  return { engine, lines, logger };
}

/** A gateway hook recording `<name>:<event>` into context.calls and returning a value. */
function hook(dir: string, manifest: string, body = `(context.calls ??= []).push('${dir}:' + event); return '${dir}';`) {
  return {
    [`hooks/${dir}/HOOK.yaml`]: manifest,
    [`hooks/${dir}/handler.ts`]: `export async function handle(event: string, context: any) { ${body} }\n`,
  };
}

describe('gateway hook discovery (§2.1): rules and exact [hooks] messages', () => {
  it('prints each message verbatim, in directory order, and loads only valid hooks', async () => {
    const { engine, lines } = await load({
      ...hook('a-ok', 'name: ok\ndescription: fine\nevents:\n  - agent:start\n  - agent:end\n'),
      ...hook('b-empty', ''),
      ...hook('c-list', '- agent:start\n'),
      ...hook('d-noevents', 'name: quiet\n'),
      ...hook('e-emptylist', 'events: []\n'),
      ...hook('f-string', 'name: stringy\nevents: agent:start\n'),
      ...hook('g-nohandle', 'events: [agent:start]\n', ''),
      'hooks/g-nohandle/handler.ts': 'export const notHandle = 1;\n',
      ...hook('h-yaml', 'events: [unclosed\n'),
      'hooks/i-throws/HOOK.yaml': 'events: [agent:start]\n',
      'hooks/i-throws/handler.ts': "throw new Error('evaluation failed');\n",
      'hooks/j-nohandler/HOOK.yaml': 'events: [agent:start]\n',
      'hooks/k-nomanifest/handler.ts': 'export function handle() {}\n',
      'hooks/z-file.txt': 'not a directory',
      ...hook('l-badItems', 'name: items\nevents: [1, "", null]\n'),
    });
    expect(lines).toEqual([
      "[hooks] Loaded hook 'ok' for events: ['agent:start', 'agent:end']",
      '[hooks] Skipping b-empty: invalid HOOK.yaml',
      '[hooks] Skipping c-list: invalid HOOK.yaml',
      '[hooks] Skipping quiet: no events declared',
      '[hooks] Skipping e-emptylist: no events declared',
      expect.stringMatching(/^\[hooks\] Skipping stringy: 'events' must be a list of event names, got string/),
      "[hooks] Skipping g-nohandle: no 'handle' function found",
      expect.stringMatching(/^\[hooks\] Error loading hook h-yaml: .+/),
      '[hooks] Error loading hook i-throws: evaluation failed',
      '[hooks] Skipping items: no events declared',
    ]);
    expect(engine.loadedGatewayHooks()).toEqual([
      { name: 'ok', description: 'fine', events: ['agent:start', 'agent:end'], path: `${home!.path}/hooks/a-ok` },
    ]);
    // A string `events` registers nothing at all, not one handler per character (§5.7).
    expect(Object.keys(engine.describeRegistry().gatewaySubscriptions)).toEqual(['agent:start', 'agent:end']);
  });

  it('skips non-string event items with a warning and keeps the rest', async () => {
    const { engine, logger } = await load(hook('mixed', 'events: [agent:start, 7, ""]\n'));
    expect(engine.loadedGatewayHooks()[0]!.events).toEqual(['agent:start']);
    expect(logger.lines.filter((l) => l.level === 'warn' && l.message.includes('mixed'))).toHaveLength(2);
  });

  it('no hooks/ directory: nothing loaded, nothing printed; gatewayHooks off (CLI): nothing loaded', async () => {
    const first = await load({});
    expect(first.lines).toEqual([]);
    await engine!.close();
    await home!.remove();
    const second = await load(hook('h', 'events: [agent:start]\n'), false);
    expect(second.lines).toEqual([]);
    expect(second.engine.loadedGatewayHooks()).toEqual([]);
  });

  it('two directories with the same name both load; a null name falls back to the directory name', async () => {
    const { engine } = await load({
      ...hook('one', 'name: same\nevents: [agent:start]\n'),
      ...hook('two', 'name: same\nevents: [agent:start]\n'),
      ...hook('three', 'name: null\nevents: [agent:start]\n'),
    });
    expect(engine.loadedGatewayHooks().map((h) => h.name)).toEqual(['same', 'three', 'same']);
    const context: Record<string, unknown> = {};
    await engine.emit('agent:start', context);
    expect(context.calls).toEqual(['one:agent:start', 'three:agent:start', 'two:agent:start']);
  });

  it('exposes the loaded-hooks metadata as a copy', async () => {
    const { engine } = await load(hook('h', 'events: [agent:start]\n'));
    const copy = engine.loadedGatewayHooks();
    (copy[0]!.events as string[]).length = 0;
    (copy as unknown[]).push({ name: 'intruder' });
    expect(engine.loadedGatewayHooks()).toHaveLength(1);
    expect(engine.loadedGatewayHooks()[0]!.events).toEqual(['agent:start']);
  });
});

describe('wildcard resolution (§2.2)', () => {
  const files = {
    ...hook('a-exact', 'events: ["command:reset"]\n'),
    ...hook('b-wild', 'events: ["command:*"]\n'),
    ...hook('c-both', 'events: ["command:*", "command:reset"]\n'),
    ...hook('d-bare', 'events: [command, agent]\n'),
    ...hook('e-deep', 'events: ["a:*"]\n'),
  };
  it.each([
    ['command:reset', ['a-exact:command:reset', 'c-both:command:reset', 'b-wild:command:reset', 'c-both:command:reset']],
    ['command:model', ['b-wild:command:model', 'c-both:command:model']],
    ['command:*', ['b-wild:command:*', 'c-both:command:*']],
    ['command', ['d-bare:command']],
    ['agent:start', []],
    ['a:b:c', ['e-deep:a:b:c']],
    ['unknown:event', []],
  ])('%s runs %j', async (event, expected) => {
    const { engine } = await load(files);
    const context: Record<string, unknown> = {};
    await engine.emit(event, context);
    expect(context.calls ?? []).toEqual(expected);
  });
});

describe('emit and emitCollect (§2.3)', () => {
  it('passes one shared context object, runs handlers sequentially, isolates errors with the exact line', async () => {
    const { engine, lines } = await load({
      ...hook('a', 'events: [agent:start]\n', `await new Promise((r) => setTimeout(r, 20)); context.first = 'a'; return null;`),
      ...hook('b', 'events: [agent:start]\n', `if (context.first !== 'a') return 'b ran early'; throw new Error('b failed');`),
      ...hook('c', 'events: [agent:start]\n', `return { sawFirst: context.first, event };`),
      'hooks/d/HOOK.yaml': 'events: [agent:start]\n',
      'hooks/d/handler.ts': 'export function handle(event: string, context: any) { return 0; }\n',
      ...hook('e', 'events: [agent:start]\n', `return Promise.reject('rejected text');`),
    });
    lines.length = 0;
    const context = { platform: 'telegram' };
    const results = await engine.emitCollect('agent:start', context);
    expect(results).toEqual([{ sawFirst: 'a', event: 'agent:start' }, 0]);
    expect(context).toEqual({ platform: 'telegram', first: 'a' });
    expect(lines).toEqual([
      "[hooks] Error in handler for 'agent:start': b failed",
      "[hooks] Error in handler for 'agent:start': rejected text",
    ]);
    await expect(engine.emit('agent:start', context)).resolves.toBeUndefined();
  });

  it('a missing or null context becomes {}; an event without handlers is a no-op', async () => {
    const { engine } = await load(hook('a', 'events: [agent:start]\n', `return JSON.stringify(context);`));
    expect(await engine.emitCollect('agent:start')).toEqual(['{}']);
    expect(await engine.emitCollect('agent:start', null)).toEqual(['{}']);
    expect(await engine.emitCollect('session:start', {})).toEqual([]);
  });

  it('sync and async handlers both work (.js and .mjs handlers too)', async () => {
    const { engine } = await load({
      'hooks/js/HOOK.yaml': 'events: [x:y]\n',
      'hooks/js/handler.js': 'export function handle(e) { return "js:" + e; }\n',
      'hooks/mjs/HOOK.yaml': 'events: [x:y]\n',
      'hooks/mjs/handler.mjs': 'export async function handle(e) { return "mjs:" + e; }\n',
    });
    expect(await engine.emitCollect('x:y', {})).toEqual(['js:x:y', 'mjs:x:y']);
  });
});

describe('gateway startup order (§1.2): plugins, then shell hooks, then gateway hooks', () => {
  it('a gateway handler module is evaluated after plugin register() and after shell-hook consent was recorded', async () => {
    const files = {
      'agent-hooks/obs.sh': '#!/bin/sh\ncat >/dev/null\n',
      'plugins/p/plugin.yaml': 'name: p\n',
      'plugins/p/index.ts': `export function register(ctx: any) { ((globalThis as any).__startup ??= []).push('plugin'); ctx.register_hook('on_session_end', () => null); }\n`,
      'hooks/g/HOOK.yaml': 'events: [gateway:startup]\n',
      'hooks/g/handler.ts': `import { existsSync } from 'node:fs';
        ((globalThis as any).__startup ??= []).push(existsSync(process.env.__HG_ALLOWLIST!) ? 'gateway after shell' : 'gateway before shell');
        export function handle() {}\n`,
    };
    home = await tempHome(files);
    const { chmod } = await import('node:fs/promises');
    await chmod(`${home.path}/agent-hooks/obs.sh`, 0o755);
    await home.write({
      'config.yaml': `plugins:\n  enabled: [p]\nhooks:\n  on_session_end:\n    - command: ${home.path}/agent-hooks/obs.sh\n`,
    });
    process.env.__HG_ALLOWLIST = `${home.path}/shell-hooks-allowlist.json`;
    (globalThis as { __startup?: string[] }).__startup = [];
    engine = await createHookEngine({
      home: home.path,
      gatewayHooks: true,
      acceptHooks: true,
      env: {},
      logger: createMemoryLogger(),
      print: () => {},
    });
    delete process.env.__HG_ALLOWLIST;
    expect((globalThis as { __startup?: string[] }).__startup).toEqual(['plugin', 'gateway after shell']);
    expect(engine.describeRegistry().callbacks.on_session_end).toHaveLength(2);
  });
});

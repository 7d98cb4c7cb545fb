import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VALID_HOOK_NAMES_TEXT } from '../../src/hooks/catalogue.ts';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../../src/hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { enable, plugin, tempHome, type TempHome } from './support/temp-home.ts';

let home: TempHome | undefined;
let engine: LoadedHookEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await home?.remove();
  home = undefined;
  engine = undefined;
});

async function load(files: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  home = await tempHome(files);
  const logger = createMemoryLogger();
  engine = await createHookEngine({ home: home.path, logger, env, print: () => {} });
  const warnings = () => logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
  return { engine, logger, warnings };
}

const names = (engine: LoadedHookEngine, hook: string) => engine.describeRegistry().callbacks[hook] ?? [];

describe('plugin discovery and enablement (§1.2)', () => {
  it('loads only plugins named in plugins.enabled; plugins.disabled wins over enabled', async () => {
    const { engine } = await load({
      'config.yaml': 'plugins:\n  enabled: [on, both]\n  disabled: [both]\n',
      ...plugin('on', `ctx.register_hook('pre_llm_call', function on() { return 'on'; });`),
      ...plugin('both', `ctx.register_hook('pre_llm_call', function both() { return 'both'; });`),
      ...plugin('off', `ctx.register_hook('pre_llm_call', function off() { return 'off'; });`),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['on']);
    expect(engine.describeRegistry().plugins).toEqual([
      { name: 'both', dir: 'both', status: 'disabled' },
      { name: 'off', dir: 'off', status: 'not-enabled' },
      { name: 'on', dir: 'on', status: 'loaded' },
    ]);
  });

  it('with no config.yaml no plugin loads', async () => {
    const { engine } = await load(plugin('p', `ctx.register_hook('pre_llm_call', () => 'x');`));
    expect(engine.hasHook('pre_llm_call')).toBe(false);
  });

  it("uses the manifest's name for enablement, else the directory name", async () => {
    const { engine } = await load({
      'config.yaml': enable('Renamed', 'plain'),
      ...plugin('dir-one', `ctx.register_hook('pre_llm_call', () => 'renamed');`, 'name: Renamed\n'),
      ...plugin('dir-two', `ctx.register_hook('pre_llm_call', () => 'not enabled by dir name');`, 'name: other\n'),
      ...plugin('plain', `ctx.register_hook('pre_llm_call', () => 'plain');`, 'version: 1\n'),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['renamed', 'plain']);
  });

  it('orders by directory name in code-point order (uppercase before lowercase, aaa_mem before bbb_guard)', async () => {
    const { engine } = await load({
      'config.yaml': enable('bbb_guard', 'aaa_mem', 'Zed'),
      ...plugin('bbb_guard', `ctx.register_hook('pre_llm_call', () => 'bbb');`),
      ...plugin('aaa_mem', `ctx.register_hook('pre_llm_call', () => 'aaa');`),
      ...plugin('Zed', `ctx.register_hook('pre_llm_call', () => 'Zed');`),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['Zed', 'aaa', 'bbb']);
  });

  it('needs plugin.yaml and an entry; index.ts is preferred to index.js and index.mjs; .js and .mjs load', async () => {
    const { engine } = await load({
      'config.yaml': enable('ts-first', 'js', 'mjs', 'no-manifest', 'no-entry'),
      'plugins/ts-first/plugin.yaml': '',
      'plugins/ts-first/index.ts': `export function register(ctx: any) { ctx.register_hook('pre_llm_call', () => 'ts'); }`,
      'plugins/ts-first/index.js': `export function register(ctx) { ctx.register_hook('pre_llm_call', () => 'js-shadowed'); }`,
      'plugins/js/plugin.yaml': 'name: js\n',
      'plugins/js/index.js': `export function register(ctx) { ctx.register_hook('pre_llm_call', () => 'js'); }`,
      'plugins/mjs/plugin.yaml': 'name: mjs\n',
      'plugins/mjs/index.mjs': `export default { register(ctx) { ctx.register_hook('pre_llm_call', () => 'mjs'); } };`,
      'plugins/no-manifest/index.ts': `export function register(ctx: any) { ctx.register_hook('pre_llm_call', () => 'bad'); }`,
      'plugins/no-entry/plugin.yaml': 'name: no-entry\n',
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['js', 'mjs', 'ts']);
  });

  it('follows a symlinked plugin directory; a plain file under plugins/ is skipped', async () => {
    const elsewhere = await tempHome(plugin('real', `ctx.register_hook('pre_llm_call', () => 'linked');`));
    try {
      home = await tempHome({ 'config.yaml': enable('real'), 'plugins/stray-file': 'x' });
      const { symlink } = await import('node:fs/promises');
      await symlink(`${elsewhere.path}/plugins/real`, `${home.path}/plugins/linked`);
      engine = await createHookEngine({ home: home.path, logger: createMemoryLogger(), env: {}, print: () => {} });
      expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['linked']);
    } finally {
      await elsewhere.remove();
    }
  });

  it('skips a bad manifest with a message naming the file and the field, and loads the others', async () => {
    const { engine, warnings } = await load({
      'config.yaml': enable('bad', 'good', 'broken', 'list'),
      ...plugin('bad', `ctx.register_hook('pre_llm_call', () => 'bad');`, 'name: 42\n'),
      ...plugin('broken', `ctx.register_hook('pre_llm_call', () => 'broken');`, 'name: [unclosed\n'),
      ...plugin('list', `ctx.register_hook('pre_llm_call', () => 'list');`, '- a\n- b\n'),
      ...plugin('good', `ctx.register_hook('pre_llm_call', () => 'good');`),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['good']);
    const w = warnings();
    expect(w.some((m) => m.includes('plugins/bad/plugin.yaml') && m.includes("field 'name'"))).toBe(true);
    expect(w.some((m) => m.includes('plugins/broken/plugin.yaml') && m.includes('cannot parse'))).toBe(true);
    expect(w.some((m) => m.includes('plugins/list/plugin.yaml') && m.includes('must be a mapping'))).toBe(true);
  });

  it('awaits register() before the next plugin starts loading', async () => {
    const { engine } = await load({
      'config.yaml': enable('a', 'b'),
      ...plugin(
        'a',
        `await new Promise((r) => setTimeout(r, 30)); (globalThis as any).__order = ['a']; ctx.register_hook('pre_llm_call', () => 'a');`,
      ),
      ...plugin(
        'b',
        `(globalThis as any).__order.push('b'); ctx.register_hook('pre_llm_call', () => (globalThis as any).__order.join(''));`,
      ),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['a', 'ab']);
  });

  it('marks a plugin whose register throws as failed and goes on with the next one', async () => {
    const { engine, warnings } = await load({
      'config.yaml': enable('a', 'b', 'c'),
      ...plugin('a', `throw new Error('cannot start');`),
      'plugins/b/plugin.yaml': 'name: b\n',
      'plugins/b/index.ts': `throw new Error('import time failure');`,
      ...plugin('c', `ctx.register_hook('pre_llm_call', () => 'c');`),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['c']);
    expect(engine.describeRegistry().plugins.map((p) => p.status)).toEqual(['failed', 'failed', 'loaded']);
    expect(warnings().some((m) => m.includes('plugin a') && m.includes('cannot start'))).toBe(true);
    expect(warnings().some((m) => m.includes('plugin b') && m.includes('import time failure'))).toBe(true);
  });
});

describe('registration (§1.1)', () => {
  it('rejects a non-function with a warning and stores nothing', async () => {
    const { engine, warnings } = await load({
      'config.yaml': enable('p'),
      ...plugin('p', `ctx.register_hook('pre_llm_call', 'not a function'); ctx.register_hook('pre_llm_call', null);`),
    });
    expect(engine.hasHook('pre_llm_call')).toBe(false);
    expect(warnings().filter((m) => m.includes('needs a function'))).toHaveLength(2);
  });

  it('warns about an unknown hook name (plugin, hook, sorted valid names) and still stores the callback', async () => {
    const { engine, warnings } = await load({
      'config.yaml': enable('fwd'),
      ...plugin('fwd', `ctx.register_hook('on_future_event', () => 'future');`),
    });
    // @ts-expect-error a name outside the catalogue does not compile; a JavaScript caller's still runs the stored callback
    expect(await engine.invokeAll('on_future_event', {})).toEqual(['future']);
    const warning = warnings().find((m) => m.includes('on_future_event'));
    expect(warning).toContain('fwd');
    expect(warning).toContain(`valid: ${VALID_HOOK_NAMES_TEXT}`);
  });

  it('registers the same function several times as separate callbacks', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `const f = function twice() { return 'x'; }; ctx.register_hook('pre_llm_call', f); ctx.registerHook('pre_llm_call', f); ctx.register_hook('transform_llm_output', f);`,
      ),
    });
    expect(names(engine, 'pre_llm_call')).toEqual(['plugin:p:twice', 'plugin:p:twice']);
    expect(await engine.invokeAll('transform_llm_output', {})).toEqual(['x']);
  });
});

describe('idempotent and forced discovery (§1.2, §5.7)', () => {
  const shellScript = '#!/bin/sh\ncat > /dev/null\necho \'{"context": "from shell"}\'\n';

  it('running discovery again without force registers nothing twice and loads nothing new', async () => {
    const { engine } = await load({
      'config.yaml': enable('p', 'later'),
      ...plugin('p', `ctx.register_hook('pre_llm_call', () => 'p');`),
    });
    await home!.write(plugin('later', `ctx.register_hook('pre_llm_call', () => 'later');`));
    await engine.discoverPlugins();
    await engine.discoverPlugins();
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['p']);
  });

  it('forced re-discovery sees an edited entry module', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin('p', `ctx.register_hook('pre_llm_call', () => 'v1');`),
    });
    await home!.write(plugin('p', `ctx.register_hook('pre_llm_call', () => 'v2');`));
    await engine.discoverPlugins({ force: true });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['v2']);
  });

  it('forced re-discovery reloads plugins and re-registers shell hooks after them', async () => {
    home = await tempHome({
      'agent-hooks/ctx.sh': shellScript,
      ...plugin('p', `ctx.register_hook('pre_llm_call', () => 'plugin p');`),
    });
    const { chmod } = await import('node:fs/promises');
    await chmod(`${home.path}/agent-hooks/ctx.sh`, 0o755);
    await home.write({
      'config.yaml': `${enable('p', 'q')}hooks:\n  pre_llm_call:\n    - command: ${home.path}/agent-hooks/ctx.sh\n`,
    });
    const logger = createMemoryLogger();
    engine = await createHookEngine({ home: home.path, logger, acceptHooks: true, env: {}, print: () => {} });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['plugin p', { context: 'from shell' }]);

    await home.write(plugin('q', `ctx.register_hook('pre_llm_call', () => 'plugin q');`));
    await engine.discoverPlugins({ force: true });
    const listing = names(engine, 'pre_llm_call');
    expect(listing).toEqual([
      'plugin:p:<anonymous>',
      'plugin:q:<anonymous>',
      `shell:shell_hook[pre_llm_call:${home.path}/agent-hooks/ctx.sh]`,
    ]);
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['plugin p', 'plugin q', { context: 'from shell' }]);
  });
});

describe('discoverHooksHome: a plain description', () => {
  it('round-trips through JSON unchanged', async () => {
    home = await tempHome({
      'config.yaml': enable('p'),
      ...plugin('p', `ctx.register_hook('pre_llm_call', () => 'p');`),
      'hooks/h/HOOK.yaml': 'events: [agent:start]\n',
      'hooks/h/handler.ts': 'export function handle() {}\n',
    });
    const description = await discoverHooksHome(home.path, { gatewayHooks: true });
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    expect(description.plugins.map((p) => p.entry)).toEqual(['plugins/p/index.ts']);
    expect(description.gatewayHooks).toEqual([
      { kind: 'hook', dir: 'h', name: 'h', description: '', events: ['agent:start'], handler: 'hooks/h/handler.ts' },
    ]);
  });
});

describe('config.yaml and shell hooks relative to plugins (§0.1, §1.2)', () => {
  it('an unparseable config.yaml is treated as empty, with a warning', async () => {
    const { engine, warnings } = await load({
      'config.yaml': 'plugins: [unclosed\n',
      ...plugin('p', `ctx.register_hook('pre_llm_call', () => 'p');`),
    });
    expect(engine.hasHook('pre_llm_call')).toBe(false);
    expect(warnings().some((m) => m.includes('config.yaml') && m.includes('treating it as empty'))).toBe(true);
  });

  it('shell hooks run after every plugin callback, so a plugin block wins the tie', async () => {
    home = await tempHome({
      'agent-hooks/block.sh': '#!/bin/sh\ncat >/dev/null\necho \'{"action": "block", "message": "shell says no"}\'\n',
      ...plugin('zzz', `ctx.register_hook('pre_tool_call', () => ({ action: 'block', message: 'plugin says no' }));`),
    });
    const { chmod } = await import('node:fs/promises');
    await chmod(`${home.path}/agent-hooks/block.sh`, 0o755);
    await home.write({
      'config.yaml': `${enable('zzz')}hooks:\n  pre_tool_call:\n    - command: ${home.path}/agent-hooks/block.sh\n`,
    });
    engine = await createHookEngine({
      home: home.path,
      logger: createMemoryLogger(),
      acceptHooks: true,
      env: {},
      print: () => {},
    });
    expect(await engine.invokeAll('pre_tool_call', { tool_name: 'terminal', args: {} })).toEqual([
      { action: 'block', message: 'plugin says no' },
      { action: 'block', message: 'shell says no' },
    ]);
    expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: {} })).toEqual({
      action: 'block',
      message: 'plugin says no',
    });
  });

  it('without consent a shell hook is not registered (the engine passes acceptHooks through)', async () => {
    home = await tempHome({ 'agent-hooks/x.sh': '#!/bin/sh\necho {}\n' });
    await home.write({ 'config.yaml': `hooks:\n  pre_tool_call:\n    - command: ${home.path}/agent-hooks/x.sh\n` });
    engine = await createHookEngine({
      home: home.path,
      logger: createMemoryLogger(),
      acceptHooks: false,
      env: {},
      print: () => {},
    });
    expect(engine.hasHook('pre_tool_call')).toBe(false);
  });
});

// §1.2's second step, on demand: the engine loads the shell-hook machinery only for a config that
// mentions shell hooks (src/hooks/create-hook-engine.ts); what a config says of them is still read.
describe('shell hooks are registered on demand, after plugins (§1.2, §3)', () => {
  const accepted = { HOOKGATE_ACCEPT_HOOKS: '1' };
  const script = { 'hooks/ok.sh': '#!/bin/sh\necho "{}"\n' };

  it('a hooks_* setting alone still runs registration: its bad value is warned about', async () => {
    const { warnings } = await load({ 'config.yaml': 'hooks_on_drift: sometimes\n' }, accepted);
    expect(warnings()).toEqual([expect.stringContaining('hooks_on_drift must be "block" or "warn"')]);
  });

  it('a hooks: section registers its entries and warns about an unknown event', async () => {
    const { engine, warnings } = await load(
      {
        'config.yaml': 'hooks:\n  on_session_end:\n    - {command: $HOOKGATE_HOME/hooks/ok.sh}\n  on_sesion_end: []\n',
        ...script,
      },
      accepted,
    );
    expect(names(engine, 'on_session_end')).toEqual([expect.stringMatching(/^shell:shell_hook\[on_session_end:/)]);
    expect(warnings()).toEqual([expect.stringContaining("unknown shell hook event 'on_sesion_end'")]);
  });

  it('a config without shell hooks registers none, and a forced re-discovery picks up a hooks: section added since', async () => {
    const { engine, warnings } = await load({ 'config.yaml': 'plugins:\n  enabled: []\n', ...script }, accepted);
    expect(engine.describeRegistry().callbacks).toEqual({});
    await writeFile(join(home!.path, 'config.yaml'), 'hooks:\n  on_session_end:\n    - {command: $HOOKGATE_HOME/hooks/ok.sh}\n');
    await engine.discoverPlugins({ force: true });
    expect(Object.keys(engine.describeRegistry().callbacks)).toEqual(['on_session_end']);
    expect(warnings()).toEqual([]);
  });
});

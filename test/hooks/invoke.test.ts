import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
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

async function load(files: Record<string, string>, gatewayHooks = false) {
  home = await tempHome(files);
  const logger = createMemoryLogger();
  const lines: string[] = [];
  engine = await createHookEngine({ home: home.path, logger, gatewayHooks, print: (line) => lines.push(line) });
  return { engine, logger, lines };
}

describe('invoke (§1.3)', () => {
  it('runs callbacks in registration order: plugins alphabetically by directory, then in register_hook order', async () => {
    const { engine } = await load({
      'config.yaml': enable('zeta', 'alpha', 'mid'),
      ...plugin('zeta', `ctx.register_hook('pre_llm_call', () => 'zeta');`),
      ...plugin('mid', `ctx.register_hook('pre_llm_call', () => 'mid-1'); ctx.registerHook('pre_llm_call', () => 'mid-2');`),
      ...plugin('alpha', `ctx.register_hook('pre_llm_call', () => 'alpha');`),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['alpha', 'mid-1', 'mid-2', 'zeta']);
    expect(await engine.invoke('pre_llm_call', {})).toEqual({ context: 'alpha\n\nmid-1\n\nmid-2\n\nzeta' });
  });

  it('adds telemetry_schema_version as the last key, and keeps a caller-supplied value', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `ctx.register_hook('transform_llm_output', (k: any) => JSON.stringify(Object.keys(k)) + '|' + k.telemetry_schema_version);`,
      ),
    });
    expect(await engine.invokeAll('transform_llm_output', { response_text: 'r', session_id: '' })).toEqual([
      '["response_text","session_id","telemetry_schema_version"]|hermes.observer.v1',
    ]);
    expect(await engine.invokeAll('transform_llm_output', { telemetry_schema_version: 'mine', response_text: 'r' })).toEqual([
      '["telemetry_schema_version","response_text"]|mine',
    ]);
  });

  it('gives each callback its own shallow copy: top-level reassignment is not seen later, nested objects are shared', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `ctx.register_hook('pre_tool_call', (k: any) => { k.tool_name = 'changed'; k.args.touched = true; return null; });
         ctx.register_hook('pre_tool_call', (k: any) => ({ seen: k.tool_name, touched: k.args.touched }));`,
      ),
    });
    const kwargs = { tool_name: 'terminal', args: {} as Record<string, unknown> };
    expect(await engine.invokeAll('pre_tool_call', kwargs)).toEqual([{ seen: 'terminal', touched: true }]);
    expect(kwargs.tool_name).toBe('terminal');
    expect(Object.keys(kwargs)).toEqual(['tool_name', 'args']);
  });

  it('awaits async callbacks one after another, never concurrently', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `const log: string[] = [];
         ctx.register_hook('pre_llm_call', async () => { log.push('a:start'); await new Promise((r) => setTimeout(r, 20)); log.push('a:end'); return null; });
         ctx.register_hook('pre_llm_call', () => { log.push('b'); return null; });
         ctx.register_hook('pre_llm_call', async () => { await Promise.resolve(); return log.join(','); });`,
      ),
    });
    expect(await engine.invokeAll('pre_llm_call', {})).toEqual(['a:start,a:end,b']);
  });

  it('isolates a throwing or rejecting callback with a warning naming hook, callback and error', async () => {
    const { engine, logger } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `ctx.register_hook('pre_tool_call', function thrower() { throw new Error('boom'); });
         ctx.register_hook('pre_tool_call', async function rejecter() { throw 'plain string'; });
         ctx.register_hook('pre_tool_call', function survivor() { return { action: 'block', message: 'still here' }; });`,
      ),
    });
    expect(await engine.invoke('pre_tool_call', { tool_name: 't' })).toEqual({ action: 'block', message: 'still here' });
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings.some((w) => w.includes('pre_tool_call') && w.includes('thrower') && w.includes('boom'))).toBe(true);
    expect(warnings.some((w) => w.includes('pre_tool_call') && w.includes('rejecter') && w.includes('plain string'))).toBe(true);
  });

  it('drops null and undefined but keeps "", 0, false, {} and []', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `for (const v of [null, undefined, '', 0, false, {}, [], 'x']) ctx.register_hook('post_tool_call', () => v);
         ctx.register_hook('post_tool_call', async () => undefined);`,
      ),
    });
    expect(await engine.invokeAll('post_tool_call', {})).toEqual(['', 0, false, {}, [], 'x']);
  });

  it('answers the /v1 shapes: decision hooks aggregated, observer hooks {} after running their callbacks', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin(
        'p',
        `const seen: unknown[] = [];
         ctx.register_hook('post_tool_call', (k: any) => { seen.push(k.tool_name); return 'ignored'; });
         ctx.register_hook('transform_tool_result', () => seen.join(','));
         ctx.register_hook('transform_terminal_output', () => '');
         ctx.register_hook('pre_gateway_dispatch', () => ({ action: 'rewrite', text: 'new text' }));`,
      ),
    });
    expect(await engine.invoke('post_tool_call', { tool_name: 'terminal' })).toEqual({});
    expect(await engine.invoke('transform_tool_result', {})).toEqual({ result: 'terminal' });
    expect(await engine.invoke('transform_terminal_output', {})).toEqual({ output: '' });
    expect(await engine.invoke('transform_llm_output', {})).toEqual({});
    expect(await engine.invoke('pre_tool_call', {})).toEqual({ action: 'allow' });
    expect(await engine.invoke('pre_gateway_dispatch', {})).toEqual({ action: 'rewrite', text: 'new text' });
  });

  it('the invoke path touches no files: it still answers after the hooks home is deleted', async () => {
    const { engine } = await load(
      {
        'config.yaml': enable('p'),
        ...plugin('p', `ctx.register_hook('pre_tool_call', () => ({ action: 'block', message: 'cached' }));`),
        'hooks/h/HOOK.yaml': 'events: [agent:start]\n',
        'hooks/h/handler.ts': 'export function handle() { return "still here"; }\n',
      },
      true,
    );
    await home!.remove();
    expect(await engine.invoke('pre_tool_call', {})).toEqual({ action: 'block', message: 'cached' });
    expect(await engine.emitCollect('agent:start', {})).toEqual(['still here']);
  });

  it('hasHook is true iff a callback is registered', async () => {
    const { engine } = await load({
      'config.yaml': enable('p'),
      ...plugin('p', `ctx.register_hook('post_api_request', () => null);`),
    });
    expect(engine.hasHook('post_api_request')).toBe(true);
    expect(engine.hasHook('pre_api_request')).toBe(false);
  });
});

describe('pre_tool_call args are an object for every callback (§1.5, §3.6; issue #14 item 3)', () => {
  it.each([
    ['a list', ['ls', '-la']],
    ['a string', 'ls -la'],
    ['null', null],
  ])('%s becomes {} for plugins and tool_input {} for shell hooks, key order kept', async (_label, args) => {
    home = await tempHome(
      plugin('p', `ctx.register_hook('pre_tool_call', (k: any) => ({ args: k.args, keys: Object.keys(k) }));`),
    );
    const stdinFile = join(home.path, 'stdin.json');
    const script = join(home.path, 'record.sh');
    await writeFile(script, `#!/bin/sh\ncat > '${stdinFile}'\n`);
    await chmod(script, 0o755);
    await home.write({ 'config.yaml': `${enable('p')}hooks:\n  pre_tool_call:\n    - command: ${script}\n` });
    engine = await createHookEngine({
      home: home.path,
      logger: createMemoryLogger(),
      acceptHooks: true,
      env: {},
      print: () => {},
    });
    const results = await engine.invokeAll('pre_tool_call', { tool_name: 'terminal', args, session_id: 's' });
    expect(results[0]).toEqual({ args: {}, keys: ['tool_name', 'args', 'session_id', 'telemetry_schema_version'] });
    expect(JSON.parse(await readFile(stdinFile, 'utf8')).tool_input).toEqual({});
    expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args })).toEqual({ action: 'allow' });
  });
});

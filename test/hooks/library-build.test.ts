import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable, plugin, tempHome, type TempHome } from './support/temp-home.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

// The package is built with the project's own build config (tsconfig.build.json), narrowed
// to the library entry so the test takes seconds. It lives under node_modules/.cache so that
// the built files resolve the installed dependencies exactly as an installed package does.
let pkg: string;
let consumer: string;
let home: TempHome;

beforeAll(async () => {
  pkg = join(ROOT, 'node_modules', '.cache', `hookgate-pkg-${process.pid}`);
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'tsconfig.json'),
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.build.json'),
      compilerOptions: { outDir: join(pkg, 'dist'), rootDir: ROOT, sourceMap: false },
      include: [],
      files: [join(ROOT, 'src', 'index.ts')],
    }),
  );
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(pkg, 'tsconfig.json')]);
  // package.json as published: name, type and exports from the real one.
  const manifest = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as Record<string, unknown>;
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: manifest.name,
      type: manifest.type,
      main: manifest.main,
      types: manifest.types,
      exports: manifest.exports,
    }),
  );
  consumer = await mkdtemp(join(tmpdir(), 'hookgate-consumer-'));
  await mkdir(join(consumer, 'node_modules'));
  await symlink(pkg, join(consumer, 'node_modules', 'hookgate'));
  home = await tempHome({
    'config.yaml': enable('guard'),
    ...plugin(
      'guard',
      `ctx.register_hook('pre_tool_call', (k: { tool_name?: string }) => k.tool_name === 'terminal' ? { action: 'block', message: 'no shell' } : null);
       ctx.register_hook('transform_llm_output', () => 'rewritten');`,
    ),
    'hooks/cmd/HOOK.yaml': 'name: cmd\nevents: ["command:*"]\n',
    'hooks/cmd/handler.ts':
      'export function handle(event: string, ctx: { n?: number }) { ctx.n = (ctx.n ?? 0) + 1; return { decision: "deny", event }; }\n',
  });
}, 120_000);

afterAll(async () => {
  await rm(pkg, { recursive: true, force: true });
  await rm(consumer, { recursive: true, force: true });
  await home.remove();
});

describe("the built package: import { loadHookEngine } from 'hookgate'", () => {
  it('loads a home with a .ts plugin and a .ts gateway hook in plain node', async () => {
    const script = `
      import { loadHookEngine } from 'hookgate';
      const hooks = await loadHookEngine({ home: ${JSON.stringify(home.path)} });
      const out = {
        block: await hooks.invoke('pre_tool_call', { tool_name: 'terminal', args: {} }),
        allow: await hooks.invoke('pre_tool_call', { tool_name: 'read_file', args: {} }),
        all: await hooks.invokeAll('transform_llm_output', { response_text: 'x' }),
        llm: await hooks.invoke('transform_llm_output', { response_text: 'x' }),
        observer: await hooks.invoke('post_tool_call', {}),
        collected: await hooks.emitCollect('command:reset', {}),
        emitted: await hooks.emit('command:model', {}),
      };
      await hooks.close();
      console.log('RESULT ' + JSON.stringify(out));
    `;
    await writeFile(join(consumer, 'main.mjs'), script);
    const { stdout } = await run(process.execPath, [join(consumer, 'main.mjs')], { cwd: consumer });
    expect(stdout).toContain("[hooks] Loaded hook 'cmd' for events: ['command:*']");
    const result = JSON.parse(stdout.split('RESULT ')[1]!);
    expect(result).toEqual({
      block: { action: 'block', message: 'no shell' },
      allow: { action: 'allow' },
      all: ['rewritten'],
      llm: { response_text: 'rewritten' },
      observer: {},
      collected: [{ decision: 'deny', event: 'command:reset' }],
    });
  });
});

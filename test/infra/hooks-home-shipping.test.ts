import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HooksHomeBuildError, prepareHooksBundle } from '../../infra/lib/hooks-bundle.ts';

/**
 * What a hooks home ships is decided at synth, before esbuild runs: these tests stop at
 * `prepareHooksBundle` (the bundle test builds the real assets from the examples' home).
 */
let dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

/** A home with an enabled plugin `guard` (with a declared data file), a disabled `spare`, and a gateway hook. */
async function makeHome(files: Record<string, string> = {}): Promise<{ home: string; buildDir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'hookgate-ship-'));
  dirs.push(root);
  const home = join(root, 'home');
  const base: Record<string, string> = {
    'config.yaml': 'plugins:\n  enabled: [guard]\n',
    'plugins/guard/plugin.yaml': 'name: guard\nfiles: [patterns.txt]\n',
    'plugins/guard/index.ts': 'export function register() {}\n',
    'plugins/guard/patterns.txt': 'rm -rf\n',
    'plugins/guard/notes.md': 'not declared\n',
    'plugins/spare/plugin.yaml': 'name: spare\n',
    'plugins/spare/index.ts': 'export function register() {}\n',
    'hooks/audit/HOOK.yaml': 'name: audit\nevents: [agent:start]\n',
    'hooks/audit/handler.ts': 'export function handle() {}\n',
    ...files,
  };
  for (const [path, text] of Object.entries(base)) {
    await mkdir(join(home, path, '..'), { recursive: true });
    await writeFile(join(home, path), text);
  }
  return { home, buildDir: join(root, 'build') };
}

const prepare = (home: string, buildDir: string, extra: Parameters<typeof prepareHooksBundle>[1] = {}) =>
  prepareHooksBundle(home, { buildDir, print: () => {}, searchDirs: [], ...extra });

describe('the hooks home shipped with a deployment', () => {
  it('ships manifests and declared files of enabled plugins and gateway hooks; compiles their code in; leaves sources, disabled plugins and undeclared files out', async () => {
    const { home, buildDir } = await makeHome();
    const lines: string[] = [];
    const bundle = await prepare(home, buildDir, { print: (line) => lines.push(line) });
    expect([...bundle.files].sort()).toEqual([
      'config.yaml',
      'hooks/audit/HOOK.yaml',
      'plugins/guard/patterns.txt',
      'plugins/guard/plugin.yaml',
    ]);
    const register = await readFile(bundle.registerModule, 'utf8');
    expect(register).toContain(JSON.stringify(join(home, 'plugins/guard/index.ts')));
    expect(register).toContain(JSON.stringify(join(home, 'hooks/audit/handler.ts')));
    expect(register).not.toMatch(/import .*plugins\/spare/); // listed as not enabled in the description, never imported
    // Synth says what ships, file by file.
    expect(lines.join('\n')).toMatch(/bundled hooks home .*: 4 files/);
    expect(lines.join('\n')).toContain('plugins/guard/patterns.txt (');
  });

  it('refuses a symbolic link anywhere a file could ship from, naming each', async () => {
    const { home, buildDir } = await makeHome({ '.env': 'OPENAI_API_KEY=sk-x\n', '.ssh/id_rsa': 'KEY\n' });
    await symlink(join(home, '.env'), join(home, 'plugins/guard/env-link'));
    await symlink(join(home, '.ssh'), join(home, 'plugins/spare/ssh-link'));
    await mkdir(join(home, 'sessions'));
    await symlink(join(home, 'sessions'), join(home, 'hooks/audit/sessions-link'));
    const attempt = prepare(home, buildDir);
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(`${join(home, 'plugins/guard/env-link')}: symbolic link, not bundled`);
    await expect(attempt).rejects.toThrow(`${join(home, 'plugins/spare/ssh-link')}: symbolic link, not bundled`);
    await expect(attempt).rejects.toThrow(`${join(home, 'hooks/audit/sessions-link')}: symbolic link, not bundled`);
  });

  it('refuses a symlink loop with its path, not a stack trace', async () => {
    const { home, buildDir } = await makeHome();
    await symlink(join(home, 'plugins/loop-b'), join(home, 'plugins/loop-a'));
    await symlink(join(home, 'plugins/loop-a'), join(home, 'plugins/loop-b'));
    await symlink('.', join(home, 'hooks/audit/self'));
    const attempt = prepare(home, buildDir);
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(`${join(home, 'plugins/loop-a')}: symbolic link, not bundled`);
    await expect(attempt).rejects.toThrow(`${join(home, 'hooks/audit/self')}: symbolic link, not bundled`);
  });

  it('refuses a declared file outside its plugin, and a declared file that is missing', async () => {
    const { home, buildDir } = await makeHome({
      'plugins/guard/plugin.yaml': 'name: guard\nfiles: [../../.env, nothere.txt]\n',
      '.env': 'X=1\n',
    });
    const attempt = prepare(home, buildDir);
    await expect(attempt).rejects.toThrow(/files: \.\.\/\.\.\/\.env is outside plugins\/guard/);
    await expect(attempt).rejects.toThrow(/files: nothere\.txt not found/);
  });

  it('refuses plugins.enabled naming no plugin, with the closest name', async () => {
    const { home, buildDir } = await makeHome({ 'config.yaml': 'plugins:\n  enabled: [gaurd, nosuch]\n' });
    const attempt = prepare(home, buildDir);
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(
      `${join(home, 'config.yaml')}: plugins.enabled names 'gaurd', but no plugin in ${join(home, 'plugins')} is called that — did you mean 'guard'?`,
    );
    await expect(attempt).rejects.toThrow(/plugins\.enabled names 'nosuch', .* \(plugins there: guard, spare\)/);
  });

  it('refuses a shell hook calling a program Lambda lacks, unless named in allowHooksMissingInLambda', async () => {
    const { home, buildDir } = await makeHome({
      'config.yaml':
        'hooks:\n  pre_tool_call:\n    - command: agent-hooks/guard.sh\n  post_tool_call:\n    - command: "python3 agent-hooks/audit.py"\n',
      'agent-hooks/guard.sh': '#!/bin/sh\njq -r .tool_name\n',
      'agent-hooks/audit.py': 'print("{}")\n',
    });
    await chmod(join(home, 'agent-hooks/guard.sh'), 0o755);
    const attempt = prepare(home, buildDir);
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(
      'hooks.pre_tool_call: agent-hooks/guard.sh: calls jq, which the Lambda runtime (nodejs22.x) does not have; it would never run there (ship it anyway with -c allowHooksMissingInLambda=guard.sh)',
    );
    await expect(attempt).rejects.toThrow(
      /hooks\.post_tool_call: python3 agent-hooks\/audit\.py: calls python3, .*allowHooksMissingInLambda=audit\.py/,
    );
    // Named, by script name or by the command as written: it ships.
    const bundle = await prepare(home, buildDir, { allowHooksMissingInLambda: ['guard.sh', 'python3 agent-hooks/audit.py'] });
    expect(bundle.files).toEqual(expect.arrayContaining(['agent-hooks/guard.sh', 'agent-hooks/audit.py']));
  });
});

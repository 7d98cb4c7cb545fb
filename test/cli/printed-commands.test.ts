import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scaffoldCommand } from '../../src/cli/hooks-home-scaffold.ts';
import { loadedHooksLines } from '../../src/local/dev-banner.ts';

// "Every command hookgate prints runs as printed": each test pastes a printed line into a real
// `sh -c`, with a `hookgate` on PATH, in a home whose path needs quoting (a space and a quote).
const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));

let parent: string;
let home: string;
let shimDir: string;

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${shimDir}:${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    HOOKGATE_LOG_LEVEL: 'warn',
  };
  delete e.HOOKGATE_HOME;
  delete e.HERMES_HOME;
  return e;
}

function sh(line: string) {
  const run = spawnSync('sh', ['-c', line], { env: env(), encoding: 'utf8', timeout: 60_000, input: '' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function listLine(): string {
  const list = sh(`hookgate hooks list --home '${home.replace(/'/g, `'\\''`)}'`);
  expect(list.status, list.stderr).toBe(0);
  return list.stdout.split('\n').find((l) => l.includes('block-rm-rf.sh'))!;
}

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'hookgate-printed-'));
  home = join(parent, "it's my home");
  shimDir = join(parent, 'bin');
  await mkdir(shimDir);
  await writeFile(join(shimDir, 'hookgate'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  await chmod(join(shimDir, 'hookgate'), 0o755);
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

it('the approve command hookgate init prints runs as printed and approves the shell hook', () => {
  const init = spawnSync(process.execPath, [BIN, 'init', home], { env: env(), encoding: 'utf8', timeout: 60_000 });
  expect(init.status, init.stderr).toBe(0);
  const approve = init.stdout
    .split('\n')
    .find((l) => l.includes('hookgate hooks approve'))!
    .trim();
  expect(approve).toContain('--yes');
  expect(listLine()).toContain('✗ not allowlisted');
  const run = sh(approve);
  expect(run.status, run.stderr).toBe(0);
  expect(listLine()).toContain('✓ allowed');
  // The other lines it prints run too (`hooks list`; dev is a server, not run here).
  const list = init.stdout
    .split('\n')
    .find((l) => l.includes('hookgate hooks list'))!
    .replace(/#.*$/, '')
    .trim();
  expect(sh(list).status).toBe(0);
  // And the hook it wrote runs from that home: its command is quoted as the shell words it is split into.
  const test = sh(`hookgate hooks test pre_tool_call --home '${home.replace(/'/g, `'\\''`)}' --expect allow`);
  expect(test.stdout).toContain('exit=0');
  expect(test.status, test.stdout).toBe(0);
  // Run again on the same home, init says the hook is approved and prints no approve line.
  const again = spawnSync(process.execPath, [BIN, 'init', home], { env: env(), encoding: 'utf8', timeout: 60_000 });
  expect(again.status, again.stderr).toBe(0);
  expect(again.stdout).toContain('the shell hook is approved');
  expect(again.stdout).not.toContain('not approved yet');
  expect(again.stdout).not.toContain('hookgate hooks approve');
}, 150_000);

it('the approve command dev prints for an un-approved shell hook runs as printed', () => {
  const command = scaffoldCommand(home);
  const revoke = spawnSync(process.execPath, [BIN, 'hooks', 'revoke', command, '--home', home], {
    env: env(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(revoke.status, revoke.stderr).toBe(0);
  expect(listLine()).toContain('✗ not allowlisted');
  const shell = {
    matcher: 'terminal',
    timeout: 5,
    enabled: true,
    approved: false,
    approved_at: null,
    drift: null,
    running: false,
    not_running: 'not-approved' as const,
  };
  const lines = loadedHooksLines({
    home,
    config_path: join(home, 'config.yaml'),
    plugins: [],
    gateway_hooks: [],
    skipped: [],
    shell_hooks: [{ ...shell, event: 'pre_tool_call', command }],
    notices: [],
    reload: { watching: false },
  });
  const approve = /\(to allow it: (hookgate hooks approve .*?), --accept-hooks, /.exec(lines.at(-1)!)![1]!;
  const run = sh(approve);
  expect(run.status, run.stderr).toBe(0);
  expect(listLine()).toContain('✓ allowed');
}, 150_000);

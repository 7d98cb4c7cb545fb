import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
let home: string;

function runDev(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'dev', '--home', home, '--port', '0', ...args], {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      // Started anyway: that is all this test needs to see.
      if (/listening|http:\/\/127\.0\.0\.1:\d+/.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-dev-invalid-'));
  // A typo'd event name and an entry without a command: both would silently drop a guard.
  await writeFile(
    join(home, 'config.yaml'),
    'hooks:\n  pre_tool_call:\n    - matcher: terminal\n      timeout: 5\n  pre_tol_call:\n    - command: /bin/true\n',
  );
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('hookgate dev on an invalid hooks configuration', () => {
  it('refuses to start with exit 2, naming file, line and reason', async () => {
    const { code, stderr } = await runDev([]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(home, 'config.yaml')}:3: hooks.pre_tool_call[0] is missing a non-empty 'command' field`);
    expect(stderr).toContain(`${join(home, 'config.yaml')}:5: unknown shell hook event 'pre_tol_call'`);
    expect(stderr).toContain('--allow-invalid-config');
  });

  it('refuses a hooks home that is a file with exit 2, naming where it came from', async () => {
    const file = join(home, 'config.yaml');
    const child = spawn(process.execPath, [BIN, 'dev', '--port', '0'], {
      env: { ...process.env, HOOKGATE_HOME: file, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toBe(`hookgate dev: the hooks home ${file} (HOOKGATE_HOME) is a file, not a directory\n`);
  });

  it('starts anyway with --allow-invalid-config, still printing what it ignores', async () => {
    const { code, stderr, stdout } = await runDev(['--allow-invalid-config']);
    expect(stderr).toContain(`${join(home, 'config.yaml')}:5: unknown shell hook event 'pre_tol_call'`);
    expect(stdout).toMatch(/127\.0\.0\.1:\d+/);
    expect(code === 0 || code === null).toBe(true);
  }, 60_000);
});

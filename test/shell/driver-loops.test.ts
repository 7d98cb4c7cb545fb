import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentFixup, runFileText } from '../../src/hooks/shell/spawn/driver-script.ts';
import { ShellDriverPool } from '../../src/hooks/shell/spawn/shell-driver-pool.ts';
import { processGone } from '../support/process-gone.ts';
import { until } from '../support/until.ts';

/*
 * The driver loop (driver-script.ts) in the shells it meets: dash (Debian's and Ubuntu's /bin/sh)
 * and bash invoked as `sh` (Lambda's /bin/sh). The shared cases (stdin, exit, timeouts, a hook
 * that kills its runner) run through runShellCommand in run-shell-command.test.ts, on this
 * machine's /bin/sh.
 */

const dir = mkdtempSync(join(tmpdir(), 'hookgate-loops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

// bash as Lambda runs it: as `sh` (a bash named otherwise whose stdin is a socket, as Node's
// pipes are, reads ~/.bashrc).
const bashAsSh = join(dir, 'sh');
if (existsSync('/bin/bash')) symlinkSync('/bin/bash', bashAsSh);
const shells = [
  { shell: '/usr/bin/dash', name: 'dash' },
  { shell: bashAsSh, name: 'bash' },
].filter(({ shell }) => existsSync(shell));

describe.each(shells)('the driver loop in $shell', ({ shell, name }) => {
  const pool = new ShellDriverPool({ shell });
  afterAll(() => pool.close());
  const PATH = '/usr/local/bin:/usr/bin:/bin';

  it('gives the hook the stdin file, its own output files and its exit status, run after run', async () => {
    const hook = executable(join(dir, `echo-${name}`), 'cat; echo "err $1" >&2; exit 3');
    for (const n of [1, 2, 3]) {
      const record = await pool.run([hook, `run ${n}`], `{"n": ${n}}`, 10, { PATH });
      expect(record).toMatchObject({ returncode: 3, stdout: `{"n": ${n}}`, stderr: `err run ${n}\n`, error: null });
    }
  });

  it('hands the hook its environment unchanged: its own names, and those a shell manages (§3.5)', async () => {
    const names = ['i', 'o', 'e', 'a', 'n', 'l', 'r', 's', 'hookgate_request'];
    const mine = { PATH, ...Object.fromEntries(names.map((name) => [name, `mine-${name}`])) };
    // A shell sets PWD and (bash) SHLVL, resets IFS and (bash) drops OLDPWD: each put back, or left unset.
    const managed = { ...mine, PWD: '/not/the/cwd', SHLVL: '7', IFS: ":'x", OLDPWD: '/o' };
    for (const env of [mine, managed]) {
      const record = await pool.run(['/usr/bin/env'], '', 10, env);
      const seen = record!.stdout.split('\n').filter((line) => line !== '');
      expect(seen.sort()).toEqual(
        Object.entries(env)
          .map(([name, value]) => `${name}=${value}`)
          .sort(),
      );
    }
  });

  it("leaves a variable no shell can carry (A-B) to Node's spawn", async () => {
    expect(await pool.run(['/usr/bin/env'], '', 10, { PATH, 'A-B': '1' })).toBeUndefined();
  });

  it('runs the program on PATH, not a builtin or function of the same name', async () => {
    const bin = mkdtempSync(join(dir, 'bin-'));
    executable(join(bin, 'hookgate_request'), 'echo program');
    executable(join(bin, 'echo'), 'echo "program echo $*"');
    const env = { PATH: `${bin}:${PATH}` };
    expect((await pool.run(['hookgate_request'], '', 10, env))?.stdout).toBe('program\n');
    expect((await pool.run(['echo', 'a', 'b'], '', 10, env))?.stdout).toBe('program echo a b\n');
  });

  it('looks a bare name up afresh on every run, as execvp does', async () => {
    const [first, second] = [mkdtempSync(join(dir, 'first-')), mkdtempSync(join(dir, 'second-'))];
    const env = { PATH: `${first}:${second}:${PATH}` };
    executable(join(first, 'hookgate-prog'), 'echo first');
    executable(join(second, 'hookgate-prog'), 'echo second');
    expect((await pool.run(['hookgate-prog'], '', 10, env))?.stdout).toBe('first\n');
    rmSync(join(first, 'hookgate-prog'));
    expect((await pool.run(['hookgate-prog'], '', 10, env))?.stdout).toBe('second\n');
  });

  it('reports a signal death as minus the signal, and kills the group on timeout', async () => {
    expect((await pool.run(['/bin/sh', '-c', 'kill -9 $$'], '', 10, { PATH }))?.returncode).toBe(-9);
    const pidFile = join(dir, `sleeper-${name}`);
    const record = await pool.run(['/bin/sh', '-c', `sleep 30 & echo $! > '${pidFile}'; wait`], '', 1, { PATH });
    expect(record).toMatchObject({ timed_out: true, returncode: null });
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    await until(() => processGone(sleeper), `the grandchild ${sleeper} to be killed`);
  });

  it('runs nothing and answers undefined once its scratch files are gone', async () => {
    const own = new ShellDriverPool({ shell });
    const marker = join(dir, `ran-${name}`);
    // Its scratch dir is the one that appears with its first run (files share workers: only that one goes).
    const before = new Set(scratchDirs());
    expect((await own.run(['/bin/true'], '', 10, { PATH }))?.returncode).toBe(0);
    // The driver forks its next subshell ahead, which creates run 2's output files: removing the
    // dir before then races it (ENOTEMPTY; rmSync's retries do not list the dir again).
    const fresh = scratchDirs().filter((p) => !before.has(p));
    await until(
      () => fresh.some((path) => readdirSync(path).some((file) => file.endsWith('.err2'))),
      'the driver to fork its next run ahead',
    );
    for (const path of fresh) rmSync(path, { recursive: true, force: true });
    expect(await own.run(['/bin/sh', '-c', `touch '${marker}'`], '', 10, { PATH })).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    own.close();
  });
});

/** This process's driver scratch dirs, wherever they are. */
function scratchDirs(): string[] {
  return ['/dev/shm', tmpdir()].filter(existsSync).flatMap((root) =>
    readdirSync(root)
      .filter((n) => n.startsWith(`hookgate-sh-${process.pid}-`))
      .map((n) => join(root, n)),
  );
}

describe('environmentFixup', () => {
  it('puts back or unsets each variable a shell manages; a name no shell carries leaves the run to spawn', () => {
    expect(environmentFixup({ PATH: '/bin' })).toBe('unset PWD OLDPWD SHLVL IFS\n');
    expect(environmentFixup({ PATH: '/bin', PWD: "/it's", SHLVL: '2', OLDPWD: '/o', IFS: ':' })).toBe(
      `:; export PWD='/it'\\''s' OLDPWD='/o' SHLVL='2' IFS=':'\n`,
    );
    expect(environmentFixup({ PATH: '/bin', 'A-B': '1' })).toBeUndefined();
  });
});

describe('runFileText', () => {
  it('quotes every word for `set --`', () => {
    expect(runFileText(['/h/a.sh', "it's"])).toBe(`set -- '/h/a.sh' 'it'\\''s'\n`);
    expect(runFileText(['jq', '.', ''])).toBe(`set -- 'jq' '.' ''\n`);
  });
});

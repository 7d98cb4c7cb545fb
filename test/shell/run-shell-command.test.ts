import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { types } from 'node:util';
import { runShellCommand } from '../../src/hooks/shell/spawn/run-shell-command.ts';
import { CAPTURE_LIMIT_BYTES } from '../../src/hooks/shell/spawn/run-record.ts';
import { processGone } from '../support/process-gone.ts';
import { until } from '../support/until.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookgate-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string, mode = 0o755): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

/** The running (not zombie) processes whose process group is `pgid`. */
const groupMembers = (pgid: number) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    });

describe.each(['fast', 'exact'] as const)('runShellCommand (%s path, §3.5)', (path) => {
  it('writes the payload to stdin byte for byte and captures stdout/stderr/exit', async () => {
    const out = join(dir, `stdin-${path}.bin`);
    const hook = script(`echo-${path}.sh`, `cat > '${out}'\necho '{"ok": 1}'\necho oops >&2\nexit 3`);
    const payload = '{"k": "é ✓ \\n"}';
    const record = await runShellCommand(hook, payload, 10, { path });
    expect(record).toMatchObject({ returncode: 3, stdout: '{"ok": 1}\n', stderr: 'oops\n', timed_out: false, error: null });
    expect(readFileSync(out)).toEqual(Buffer.from(payload, 'utf8')); // no trailing newline added
  });

  it('inherits env and cwd; no $ expansion, # is ordinary, leading ~ expanded', async () => {
    process.env.HOOKGATE_TEST_VAR = `v-${path}`;
    const record = await runShellCommand(`/bin/sh -c 'echo "$HOOKGATE_TEST_VAR $(pwd) $0 $1"' '$HOME' '#x'`, '', 10, { path });
    expect(record.stdout).toBe(`v-${path} ${process.cwd()} $HOME #x\n`);
    const home = mkdtempSync(join(dir, 'home-'));
    script(`home-${path}.sh`, 'echo tilde');
    writeFileSync(join(home, 'hook.sh'), '#!/bin/sh\necho tilde-home\n', { mode: 0o755 });
    const oldHome = process.env.HOME;
    process.env.HOME = home;
    try {
      expect((await runShellCommand('~/hook.sh', '', 10, { path })).stdout).toBe('tilde-home\n');
      expect((await runShellCommand('/bin/echo ~/x', '', 10, { path })).stdout).toBe('~/x\n');
    } finally {
      process.env.HOME = oldHome;
      delete process.env.HOOKGATE_TEST_VAR;
    }
  });

  it.runIf(existsSync('/proc/self/cmdline'))(
    'searches PATH for a bare program name and passes argv[0] as written, arguments byte for byte',
    async () => {
      const cmdline = await runShellCommand('cat /proc/self/cmdline', '', 10, { path });
      expect(cmdline).toMatchObject({ returncode: 0, stdout: 'cat\0/proc/self/cmdline\0', error: null });
      const args = await runShellCommand(`sh -c 'printf "%s|%s" "$0" "$1"' 'é ✓' "a  b"`, '', 10, { path });
      expect(args).toMatchObject({ returncode: 0, stdout: 'é ✓|a  b', error: null });
    },
  );

  it('decodes output as UTF-8 with invalid sequences replaced', async () => {
    const hook = script(`bad-utf8-${path}.sh`, `printf 'a\\377b'\nprintf 'c\\300' >&2`);
    expect(await runShellCommand(hook, '', 10, { path })).toMatchObject({ stdout: 'a\ufffdb', stderr: 'c\ufffd' });
  });

  it('a hook that never reads stdin is fine', async () => {
    const big = 'x'.repeat(256 * 1024);
    expect(await runShellCommand('/bin/true', big, 10, { path })).toMatchObject({ returncode: 0, error: null });
  });

  it('reports the spawn error classes', async () => {
    expect((await runShellCommand(join(dir, 'missing.sh'), '', 5, { path })).error).toBe('command not found');
    expect((await runShellCommand('no-such-program-hookgate', '', 5, { path })).error).toBe('command not found');
    const noExec = script(`noexec-${path}.sh`, 'echo hi', 0o644);
    expect((await runShellCommand(noExec, '', 5, { path })).error).toBe('command not executable');
    expect((await runShellCommand(dir, '', 5, { path })).error).toBe('command not executable');
    expect((await runShellCommand("''", '', 5, { path })).error).toBe('command not found');
    // Executable, but neither #! nor ELF: execve's ENOEXEC, never a run by /bin/sh (§3.5 "never a shell").
    const bare = join(dir, `no-shebang-${path}.sh`);
    const ran = join(dir, `no-shebang-${path}.ran`);
    writeFileSync(bare, `touch '${ran}'\n`);
    chmodSync(bare, 0o755);
    expect(await runShellCommand(bare, '', 5, { path })).toMatchObject({
      error: `[Errno 8] Exec format error: '${bare}'`,
      returncode: null,
    });
    expect(existsSync(ran)).toBe(false);
    const unparseable = await runShellCommand(`${noExec} 'open`, '', 5, { path });
    expect(unparseable.error).toContain('cannot parse command');
    expect(unparseable.returncode).toBeNull();
  });

  it('kills the whole process group on timeout', async () => {
    const marker = join(dir, `grandchild-${path}`);
    const pidFile = join(dir, `grandchild-${path}.pid`);
    const hook = script(`slow-${path}.sh`, `(sleep 2; touch '${marker}') &\necho $! > '${pidFile}'\nsleep 30`);
    const record = await runShellCommand(hook, '', 1, { path });
    expect(record).toMatchObject({ timed_out: true, returncode: null, error: null });
    expect(record.elapsed_seconds).toBeGreaterThanOrEqual(1);
    // Killed with its group, the grandchild ends before its `touch`; left alive, it would touch, then end.
    await until(() => processGone(Number(readFileSync(pidFile, 'utf8'))), 'the grandchild to end', { timeoutMs: 10_000 });
    expect(existsSync(marker)).toBe(false);
  });

  it('captures an answer of a few MB in full (§3.5), far under the cap', async () => {
    const hook = script(`big-${path}.sh`, `printf '{"context": "'; head -c 3000000 /dev/zero | tr '\\0' a; printf '"}'`);
    const record = await runShellCommand(hook, '', 20, { path });
    expect(record).toMatchObject({ returncode: 0, stdout_truncated: false });
    expect(JSON.parse(record.stdout).context).toHaveLength(3_000_000);
  });

  it('caps captured output and says so', async () => {
    const hook = script(`flood-${path}.sh`, `head -c ${3 * CAPTURE_LIMIT_BYTES} /dev/zero | tr '\\0' a\necho done >&2`);
    const record = await runShellCommand(hook, '', 20, { path });
    expect(record.returncode).toBe(0);
    expect(record.stdout.length).toBe(CAPTURE_LIMIT_BYTES);
    expect(record.stdout_truncated).toBe(true);
    expect(record.stderr).toBe('done\n');
    expect(record.stderr_truncated).toBe(false);
  });

  // The fast path (the driver) captures into files; the exact path buffers pipes in-process.
  it.runIf(path !== 'exact')('cuts the output of a hook that is still running back to the cap', async () => {
    // The hook floods stdout, waits past the 200 ms watch, then reports the size of its stdout file.
    const hook = script(
      `runaway-${path}.sh`,
      `exec 3>&1\nhead -c ${3 * CAPTURE_LIMIT_BYTES} /dev/zero\nsleep 0.7\nstat -L -c %s /proc/self/fd/3 >&2`,
    );
    const record = await runShellCommand(hook, '', 20, { path });
    expect(record.stderr).toBe(`${CAPTURE_LIMIT_BYTES}\n`);
    expect(record.stdout.length).toBe(CAPTURE_LIMIT_BYTES);
    expect(record.stdout_truncated).toBe(true);
  });

  it.runIf(existsSync('/proc/self/status'))('starts the hook with no signal ignored or blocked', async () => {
    const record = await runShellCommand(`/bin/grep -E '^Sig(Ign|Blk)' /proc/self/status`, '', 10, { path });
    expect(record.stdout).toBe('SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n');
  });

  it('runs hooks side by side', async () => {
    const hook = script(`par-${path}.sh`, 'sleep 0.3; echo "{}"');
    const records = await Promise.all([1, 2, 3, 4].map(() => runShellCommand(hook, '', 10, { path })));
    expect(records.map((r) => r.stdout)).toEqual(['{}\n', '{}\n', '{}\n', '{}\n']);
  });
});

describe.each(['fast', 'exact'] as const)('%s path: same answers on every path', (path) => {
  it('reports minus the signal number for a signal death (§3.5)', async () => {
    expect((await runShellCommand(`/bin/sh -c 'kill -9 $$'`, '', 5, { path })).returncode).toBe(-9);
    expect((await runShellCommand(`/bin/sh -c 'kill -TERM $$'`, '', 5, { path })).returncode).toBe(-15);
    expect((await runShellCommand(`/bin/sh -c 'exit 128'`, '', 5, { path })).returncode).toBe(128);
    expect((await runShellCommand(`/bin/sh -c 'exit 200'`, '', 5, { path })).returncode).toBe(200);
  });

  it('gives the hook exactly the env passed, and looks the program up on its PATH', async () => {
    const bin = mkdtempSync(join(dir, `bin-${path}-`));
    writeFileSync(join(bin, 'only-here'), '#!/bin/sh\nenv | sort\n', { mode: 0o755 });
    process.env.HOOKGATE_NOT_PASSED = 'leak';
    try {
      const env = { PATH: `${bin}:/usr/bin:/bin`, HOOKGATE_ONLY: 'a b' };
      const record = await runShellCommand('only-here', '', 5, { path, env });
      expect(record).toMatchObject({ returncode: 0, error: null });
      const vars = record.stdout.split('\n').filter((line) => line !== '' && !/^(PWD|SHLVL|_|OLDPWD)=/.test(line));
      expect(vars).toEqual([`HOOKGATE_ONLY=a b`, `PATH=${bin}:/usr/bin:/bin`]);
      // Another env next time: a driver started for the first is not reused for it.
      const other = await runShellCommand(`/bin/sh -c 'echo "$HOOKGATE_ONLY|$HOOKGATE_NOT_PASSED"'`, '', 5, {
        path,
        env: { PATH: '/usr/bin:/bin', HOOKGATE_ONLY: 'c' },
      });
      expect(other.stdout).toBe('c|\n');
      // A name no shell carries reaches the hook too (the driver leaves such a run to Node's spawn).
      const odd = await runShellCommand('/usr/bin/env', '', 5, { path, env: { PATH: '/usr/bin:/bin', 'A-B': '1' } });
      expect(odd.stdout.split('\n').sort()).toEqual(['', 'A-B=1', 'PATH=/usr/bin:/bin']);
    } finally {
      delete process.env.HOOKGATE_NOT_PASSED;
    }
  });

  it('leaves the global process.env alone', async () => {
    const before = process.env;
    await runShellCommand('/bin/true', '', 5, { path });
    expect(process.env).toBe(before);
    expect(types.isProxy(process.env)).toBe(false);
  });
});

describe.each(['fast'] as const)('%s path', (path) => {
  it('picks up environment changes made after the first run', async () => {
    await runShellCommand('/bin/true', '', 5, { path });
    process.env.HOOKGATE_LATE_VAR = 'late';
    try {
      expect((await runShellCommand(`/bin/sh -c 'echo $HOOKGATE_LATE_VAR'`, '', 5, { path })).stdout).toBe('late\n');
    } finally {
      delete process.env.HOOKGATE_LATE_VAR;
    }
  });

  it('falls back to the exact path when the current directory is gone', async () => {
    const gone = mkdtempSync(join(dir, 'gone-'));
    const old = process.cwd();
    process.chdir(gone);
    rmSync(gone, { recursive: true });
    try {
      expect(await runShellCommand(`/bin/sh -c 'echo "{}"'`, '', 5, { path })).toMatchObject({
        returncode: 0,
        stdout: '{}\n',
        error: null,
      });
    } finally {
      process.chdir(old);
    }
  });

  it('a hook that kills its runner gets an error, and nothing of the runner’s group is left', async () => {
    const pidFile = join(dir, 'runner.pid');
    const hook = script('kill-runner.sh', `echo $PPID > '${pidFile}'\nkill -9 $PPID\nsleep 30`);
    const record = await runShellCommand(hook, '', 20, { path });
    expect(record.error).toBe('shell hook runner exited unexpectedly');
    const runner = Number(readFileSync(pidFile, 'utf8'));
    // The hook itself and the runner's waiting subshell were in the runner's process group.
    await until(() => groupMembers(runner).length === 0, `nothing left in process group ${runner}`, {
      context: () => groupMembers(runner).join(', '),
    });
    expect((await runShellCommand('/bin/echo next', '', 5, { path })).stdout).toBe('next\n');
  });

  it('follows the current directory at firing time', async () => {
    const sub = join(dir, `cwd-here-${path}`);
    mkdirSync(sub, { recursive: true });
    const old = process.cwd();
    process.chdir(sub);
    try {
      expect((await runShellCommand('/bin/pwd', '', 5, { path })).stdout).toBe(`${sub}\n`);
    } finally {
      process.chdir(old);
    }
  });
});

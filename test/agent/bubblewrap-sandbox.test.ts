import { spawnSync } from 'node:child_process';
import { chmod, link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_MAX_FILE_BYTES,
  SANDBOX_MAX_PROCESSES,
  SANDBOX_OOM_SCORE_ADJ,
  SANDBOX_SHM_BYTES,
  SANDBOX_TMP_BYTES,
} from '../../src/agent/sandbox/bubblewrap-args.ts';
import { createBubblewrapSandbox, sandboxEnvironment } from '../../src/agent/sandbox/bubblewrap-sandbox.ts';
import { probeBubblewrap } from '../../src/agent/sandbox/probe-bubblewrap.ts';
import { SECCOMP_SYSCALL_TABLES } from '../../src/agent/sandbox/seccomp-filter.ts';
import { selectToolSandbox } from '../../src/agent/sandbox/select-tool-sandbox.ts';
import { SandboxError, type ToolSandbox } from '../../src/agent/sandbox/tool-sandbox.ts';
import { MAX_COLLECTED_BYTES, runCommand } from '../../src/agent/sandbox/run-command.ts';
import { createUnsandboxed } from '../../src/agent/sandbox/unsandboxed.ts';
import { workspaceDir } from '../../src/agent/sandbox/workspace-dir.ts';
import { terminalTool } from '../../src/agent/tools/terminal.ts';
import type { ToolContext } from '../../src/agent/tools/tool.ts';
import { DEFAULT_TOOL_POLICY, toolPolicyFromConfig } from '../../src/agent/tools/tool-policy.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';

/*
 * The bubblewrap sandbox on its own (hook-semantics §5.9, docs/security.md): what a request
 * sees and may do. The end-to-end attack on a running `hookgate dev` is
 * test/e2e/sandbox-attack.test.ts.
 */
const haveSandbox = probeBubblewrap('none').ok;
let base: string;
let root: string;
let allowed: string;
let hooksHome: string;
let sandbox: ToolSandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hookgate-bwrap-'));
  await chmod(base, 0o755);
  root = join(base, 'workspaces');
  allowed = join(base, 'data');
  hooksHome = join(allowed, 'hermes');
  await mkdir(hooksHome, { recursive: true });
  await writeFile(join(allowed, 'shared.txt'), 'shared data\n');
  await writeFile(join(hooksHome, 'config.yaml'), 'hooks: {}\n');
  sandbox = createBubblewrapSandbox({
    workspaceRoot: root,
    allowedRoots: [allowed],
    hidden: [hooksHome],
    envPassthrough: ['HOOKGATE_TEST_PASSED'],
  });
});
afterAll(() => rm(base, { recursive: true, force: true }));

const s1 = { sessionId: 'telegram:1/../x' };
const exec = (command: string, timeoutSeconds = 30, session = s1) =>
  sandbox.run(session, { op: 'exec', command, timeoutSeconds });

describe.skipIf(!haveSandbox)('createBubblewrapSandbox', { timeout: 60_000 }, () => {
  it('runs a command in /workspace with only the sandbox environment, as a user without capabilities', async () => {
    process.env.HOOKGATE_TEST_PASSED = 'passed-through';
    process.env.HOOKGATE_TEST_SECRET = 'not-passed';
    try {
      const run = await createBubblewrapSandbox({ workspaceRoot: root, envPassthrough: ['HOOKGATE_TEST_PASSED'] }).run(s1, {
        op: 'exec',
        command: 'pwd; echo "$HOME $TMPDIR"; tr "\\0" "\\n" < /proc/1/environ | sort; grep CapEff /proc/self/status; exit 3',
        timeoutSeconds: 30,
      });
      expect(run.exitCode).toBe(3);
      const lines = run.output.trim().split('\n');
      expect(lines[0]).toBe('/workspace');
      expect(lines[1]).toBe('/workspace /tmp');
      expect(run.output).toContain('HOOKGATE_TEST_PASSED=passed-through');
      expect(run.output).not.toContain('not-passed');
      expect(run.output).toContain('CapEff:\t0000000000000000');
      expect(
        lines
          .filter((l) => l.includes('='))
          .map((l) => l.split('=')[0])
          .every(
            (n) => ['PATH', 'HOME', 'LANG', 'TZ', 'TERM', 'TMPDIR', 'HOOKGATE_TEST_PASSED'].includes(n!) || n!.startsWith('LC_'),
          ),
      ).toBe(true);
    } finally {
      delete process.env.HOOKGATE_TEST_PASSED;
      delete process.env.HOOKGATE_TEST_SECRET;
    }
  });

  it('passes the command no descriptor but 0-2, whatever the gateway process holds without close-on-exec', async () => {
    // A process with a descriptor open without close-on-exec, as LevelDB's files are under
    // hookgate dev (its table runs in the gateway's process): opened by bash, inherited by Node.
    // The shell's descriptors are listed from a subshell, so that the shell itself holds nothing
    // else meanwhile: in a pipeline it holds the pipe's read end (fd 3) until it has started the
    // next command, and around a redirected command dash keeps stdout's copy (fd 10).
    const secret = join(base, 'state-file');
    await writeFile(secret, 'another chat said: hunter2\n');
    const probe = join(base, 'fd-probe.mjs');
    const sandboxModule = new URL('../../src/agent/sandbox/bubblewrap-sandbox.ts', import.meta.url).href;
    await writeFile(
      probe,
      `const { createBubblewrapSandbox } = await import(${JSON.stringify(sandboxModule)});
       const sandbox = createBubblewrapSandbox({ workspaceRoot: ${JSON.stringify(root)} });
       const run = await sandbox.run({ sessionId: 'fd-probe' }, { op: 'exec', command: '(ls /proc/$$/fd > /tmp/fds); tr "\\n" " " < /tmp/fds; echo; cat /proc/self/fd/37 2>&1; true', timeoutSeconds: 30 });
       console.log(JSON.stringify(run.output));`,
    );
    const child = spawnSync(
      'bash',
      [
        '-c',
        `exec 37<"$1"; ls /proc/self/fd | grep -qx 37 && exec "$2" --import tsx "$3"`,
        'probe',
        secret,
        process.execPath,
        probe,
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(child.status, child.stderr).toBe(0);
    const output = JSON.parse(child.stdout.trim().split('\n').pop()!) as string;
    const [fds, ...rest] = output.split('\n');
    expect(fds!.trim().split(' ')).toEqual(['0', '1', '2']);
    expect(rest.join('\n')).not.toContain('hunter2');
    expect(rest.join('\n')).toMatch(/No such file or directory/);
  });

  it('hides a folder reached through a symlink where an allowed root holds what it points to, and one under a symlinked root', async () => {
    const homeLink = join(base, 'home-link');
    const rootLink = join(base, 'data-link');
    await symlink(hooksHome, homeLink);
    await symlink(allowed, rootLink);
    const read = (box: ToolSandbox, path: string) =>
      box.run(s1, { op: 'exec', command: `cat ${path}/config.yaml 2>&1; cat ${path}/../shared.txt; true`, timeoutSeconds: 30 });
    // `--home` given as a link into an allowed root: the home is hidden at its real place.
    const viaLinkedHome = await read(
      createBubblewrapSandbox({ workspaceRoot: root, allowedRoots: [allowed], hidden: [homeLink] }),
      hooksHome,
    );
    expect(viaLinkedHome.output).toContain('shared data');
    expect(viaLinkedHome.output).not.toContain('hooks: {}');
    // An allowed root given as a link: the home is hidden where the root shows it.
    const viaLinkedRoot = await read(
      createBubblewrapSandbox({ workspaceRoot: root, allowedRoots: [rootLink], hidden: [hooksHome] }),
      join(rootLink, 'hermes'),
    );
    expect(viaLinkedRoot.output).toContain('shared data');
    expect(viaLinkedRoot.output).not.toContain('hooks: {}');
  });

  it('bounds /tmp and /dev/shm and keeps the rest of /dev read-only (a tmpfs is memory no process is charged for)', async () => {
    const bwrapVersion = spawnSync('bwrap', ['--version'], { encoding: 'utf8' }).stdout;
    if (!/ 0\.([89]|\d\d)\.| [1-9]\d*\./.test(bwrapVersion)) return; // bwrap before 0.8 has no --size
    const run = await exec(
      'df -B1 --output=size /tmp /dev/shm | tail -2 | tr -s " \\n" " "; echo; touch /dev/x 2>&1; echo ok > /dev/null && echo null-writable',
    );
    const [sizes, touched, devNull] = run.output.trim().split('\n');
    expect(sizes!.trim().split(' ').map(Number)).toEqual([SANDBOX_TMP_BYTES, SANDBOX_SHM_BYTES]);
    expect(touched).toMatch(/Read-only file system/);
    expect(devNull).toBe('null-writable');
  });

  it("makes every process of a call the OOM killer's first choice", async () => {
    const run = await exec('cat /proc/self/oom_score_adj; sleep 5 & cat /proc/$!/oom_score_adj');
    expect(run.output.trim().split('\n')).toEqual([String(SANDBOX_OOM_SCORE_ADJ), String(SANDBOX_OOM_SCORE_ADJ)]);
    // The gateway's own process keeps its score.
    expect((await readFile('/proc/self/oom_score_adj', 'utf8')).trim()).not.toBe(String(SANDBOX_OOM_SCORE_ADJ));
  });

  it('sees a read-only system, a minimal /etc, no network and only its own processes', async () => {
    const run = await exec(
      'touch /usr/x /etc/x /x 2>&1 | grep -c "Read-only"; ls /etc | tr "\\n" " "; echo; cat /etc/passwd; ls /proc | grep -cE "^[0-9]+$"; cat /sys/class/net/*/operstate 2>&1 | head -1; curl -sS -m 3 http://1.1.1.1 2>&1 | head -c 60; echo',
    );
    const lines = run.output.split('\n');
    expect(lines[0]).toBe('3');
    for (const secretish of [
      'shadow',
      'hostname',
      'machine-id',
      'ssh',
      'environment',
      'gitconfig',
      'npmrc',
      'pip.conf',
      'resolv.conf',
    ])
      expect(lines[1]!.split(' ')).not.toContain(secretish);
    expect(lines[2]).toMatch(/^sandbox:x:\d+:\d+:sandbox:\/workspace:\/bin\/sh$/);
    expect(Number(lines[3])).toBeLessThan(8);
    expect(run.output).toMatch(/No such file|Could not resolve|connect|unreachable/i);
  });

  it('times out with 124 and kills the whole tree, background jobs included', async () => {
    const run = await exec('(sleep 60; echo late) & setsid sleep 61 & sleep 62', 1);
    expect(run).toMatchObject({ exitCode: 124, timedOut: true });
    const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    expect(ps).not.toMatch(/^sleep 6[012]$/m);
  });

  it(`caps one call at ${SANDBOX_MAX_PROCESSES} processes`, async () => {
    // dash gives up at the first fork the cap refuses ("Cannot fork"), well before the loop's end.
    const run = await exec(
      `awk '/Max processes/ {print $3}' /proc/self/limits; i=0; while [ $i -lt ${SANDBOX_MAX_PROCESSES + 20} ]; do sleep 5 & i=$((i+1)); done; echo all-started`,
    );
    expect(run.output.split('\n')[0]).toBe(String(SANDBOX_MAX_PROCESSES));
    expect(run.output).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect(run.output).not.toContain('all-started');
  });

  it(`caps each file a call writes at ${SANDBOX_MAX_FILE_BYTES} bytes`, async () => {
    // A byte at the cap's last offset, then one past it: sparse files, so nothing is written to the disk but a byte.
    const write = (offset: number, name: string) =>
      `dd if=/dev/zero of=${name} bs=1 count=1 seek=${offset} 2>/dev/null; echo "${name} $?"; wc -c < ${name}`;
    const run = await exec(
      [
        `awk '/Max file size/ {print $4}' /proc/self/limits`,
        write(SANDBOX_MAX_FILE_BYTES - 1, 'below'),
        write(SANDBOX_MAX_FILE_BYTES, 'at'),
        'rm -f below at',
      ].join('; '),
    );
    const [limit, below, belowSize, at, atSize] = run.output.split('\n');
    expect(limit).toBe(String(SANDBOX_MAX_FILE_BYTES));
    expect([below, belowSize]).toEqual(['below 0', String(SANDBOX_MAX_FILE_BYTES)]);
    // The byte past the cap is refused: SIGXFSZ ends dd (128 + 25), and the file stops at the cap.
    expect([at, atSize]).toEqual(['at 153', String(SANDBOX_MAX_FILE_BYTES)]);
  });

  it('refuses the system calls that reach kernel code no tool needs (seccomp), and keeps what programs use', async () => {
    const table = SECCOMP_SYSCALL_TABLES[process.arch as 'x64' | 'arm64'];
    // errno of a raw system call, as a C program sees it: 1 is EPERM, 38 ENOSYS.
    const errnoOf = (name: string, nr: number) =>
      `python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); libc.syscall(${nr}, 0, 0, 0); print('${name}', ctypes.get_errno())"`;
    const run = await exec(
      [
        'unshare --user --map-root-user true 2>/dev/null; echo "unshare $?"',
        errnoOf('keyctl', table.refused.keyctl!),
        errnoOf('io_uring_setup', table.refused.io_uring_setup!),
        errnoOf('bpf', table.refused.bpf!),
        errnoOf('perf_event_open', table.refused.perf_event_open!),
        errnoOf('mount', table.refused.mount!),
        errnoOf('clone3', table.clone3),
        // What programs do: threads, forks, children, pipes, a terminal-less ioctl.
        `python3 -c "import threading, subprocess; t = threading.Thread(target=print, args=('thread',)); t.start(); t.join(); print(subprocess.run(['echo', 'child'], capture_output=True).stdout.decode().strip())"`,
        '(echo subshell) | cat',
        'stty size 2>&1 | head -c 0; echo ioctl',
      ].join('; '),
    );
    expect(run.output.trim().split('\n')).toEqual([
      'unshare 1',
      'keyctl 1',
      'io_uring_setup 1',
      'bpf 1',
      'perf_event_open 1',
      'mount 1',
      'clone3 38',
      'thread',
      'child',
      'subshell',
      'ioctl',
    ]);
  });

  it('the file tools run inside: relative paths in /workspace, persisted per session, and the sandbox is their boundary', async () => {
    await sandbox.run(s1, { op: 'write', path: 'notes/a.txt', content: 'héllo wörld' });
    expect(
      await sandbox.run(s1, { op: 'patch', path: 'notes/a.txt', oldString: 'wörld', newString: 'there', replaceAll: false }),
    ).toEqual({ replacements: 1 });
    expect(await sandbox.run(s1, { op: 'read', path: '/workspace/notes/a.txt', limitBytes: 100 })).toEqual({
      content: 'héllo there',
      truncated: false,
    });
    expect(await sandbox.run(s1, { op: 'read', path: 'notes/a.txt', limitBytes: 2 })).toEqual({ content: 'hé', truncated: true });
    // On the host, in the session's own folder (the id cannot name another path).
    expect(await readFile(join(root, 'telegram_1_.._x', 'notes', 'a.txt'), 'utf8')).toBe('héllo there');
    // Another session sees none of it.
    await expect(sandbox.run({ sessionId: 's2' }, { op: 'read', path: 'notes/a.txt', limitBytes: 100 })).rejects.toThrow(
      /No such file/,
    );
    for (const path of ['/etc/shadow', '/proc/1/environ/x', join(hooksHome, 'config.yaml')]) {
      await expect(sandbox.run(s1, { op: 'read', path, limitBytes: 100 }), path).rejects.toBeInstanceOf(SandboxError);
    }
    await expect(sandbox.run(s1, { op: 'read', path: '/dev/zero', limitBytes: 100 })).rejects.toThrow(/not a regular file/);
    for (const path of ['/usr/x', '/etc/x', join(allowed, 'x.txt')]) {
      await expect(sandbox.run(s1, { op: 'write', path, content: 'x' }), path).rejects.toThrow(/Read-only file system/);
    }
  });

  it('files.allowed_roots are read-only at the same path, with the hooks home inside them hidden', async () => {
    expect(await sandbox.run(s1, { op: 'read', path: join(allowed, 'shared.txt'), limitBytes: 100 })).toEqual({
      content: 'shared data\n',
      truncated: false,
    });
    const run = await exec(`ls -A ${hooksHome} | wc -l; echo x > ${allowed}/shared.txt`);
    expect(run.output).toMatch(/^0\n.*Read-only file system/s);
    expect(await readFile(join(allowed, 'shared.txt'), 'utf8')).toBe('shared data\n');
  });

  it("an allowed root that holds the operator's home shows it empty; a root inside the home was named on purpose (§5.9)", async () => {
    const users = join(base, 'users');
    const operatorHome = join(users, 'operator');
    await mkdir(join(operatorHome, 'projects'), { recursive: true });
    await writeFile(join(operatorHome, '.aws-credentials'), 'aws_secret_access_key=HOMESECRET\n');
    await writeFile(join(operatorHome, 'projects', 'notes.txt'), 'project notes\n');
    await writeFile(join(users, 'readme.txt'), 'users\n');
    const savedHome = process.env.HOME;
    process.env.HOME = operatorHome; // os.homedir() reads it
    try {
      const choose = (allowedRoots: string[]) =>
        selectToolSandbox({
          host: 'local',
          config: { ...DEFAULT_TOOL_POLICY, allowedRoots },
          workspaceRoot: root,
        }).sandbox;
      const wide = await choose([users]).run(s1, {
        op: 'exec',
        command: `cat ${users}/readme.txt; cat ${operatorHome}/.aws-credentials; ls -A ${operatorHome} | wc -l`,
        timeoutSeconds: 30,
      });
      expect(wide.output).toMatch(/^users\n.*No such file or directory\n0\n$/s);
      const narrow = await choose([join(operatorHome, 'projects')]).run(s1, {
        op: 'read',
        path: join(operatorHome, 'projects', 'notes.txt'),
        limitBytes: 100,
      });
      expect(narrow).toEqual({ content: 'project notes\n', truncated: false });
    } finally {
      process.env.HOME = savedHome;
    }
  });

  it("an allowed root above the workspaces shows no session's workspace by its host path (§5.9)", async () => {
    const wide = createBubblewrapSandbox({ workspaceRoot: root, allowedRoots: [base] });
    const victim = { sessionId: 'victim' };
    expect((await wide.run(victim, { op: 'exec', command: 'echo TOPSECRET > secret.txt', timeoutSeconds: 30 })).exitCode).toBe(0);
    const path = join(workspaceDir(root, victim.sessionId), 'secret.txt');
    expect(await readFile(path, 'utf8')).toBe('TOPSECRET\n');
    const attack = await wide.run(
      { sessionId: 'attacker' },
      { op: 'exec', command: `cat ${path}; ls -A ${root} | wc -l`, timeoutSeconds: 30 },
    );
    expect(attack.output).toMatch(/No such file or directory\n0\n$/);
    await expect(wide.run({ sessionId: 'attacker' }, { op: 'read', path, limitBytes: 100 })).rejects.toThrow(/No such file/);
    // The rest of the allowed root is still there, read-only.
    expect(await wide.run({ sessionId: 'attacker' }, { op: 'read', path: join(allowed, 'shared.txt'), limitBytes: 100 })).toEqual(
      {
        content: 'shared data\n',
        truncated: false,
      },
    );
  });

  it('symlinks resolve inside the sandbox, and a hard link to any file outside the workspace cannot be made', async () => {
    const run = await exec(
      `ln -s ${join(hooksHome, 'config.yaml')} cfg; ln ${join(allowed, 'shared.txt')} h1; ln /etc/passwd h2; ln /usr/bin/env h3; ls -A | tr "\\n" " "`,
    );
    expect(run.output.match(/Invalid cross-device link/g)).toHaveLength(3);
    expect(run.output).not.toMatch(/\bh[123]\b(?!')/);
    await expect(sandbox.run(s1, { op: 'read', path: 'cfg', limitBytes: 100 })).rejects.toThrow(/No such file/);
  });
});

describe('the unsandboxed file tools refuse hard-linked files (terminal.sandbox: none, the Lambda tools function)', () => {
  it('a hard link a command made to a file outside the workspace is neither read nor written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookgate-hardlink-'));
    try {
      await mkdir(join(dir, 'ws', 's'), { recursive: true });
      await writeFile(join(dir, 'outside.txt'), 'outside\n');
      await link(join(dir, 'outside.txt'), join(dir, 'ws', 's', 'x'));
      const none = createUnsandboxed({ workspaceRoot: join(dir, 'ws') });
      await expect(none.run({ sessionId: 's' }, { op: 'read', path: 'x', limitBytes: 100 })).rejects.toThrow(/hard links/);
      await expect(none.run({ sessionId: 's' }, { op: 'write', path: 'x', content: 'pwned' })).rejects.toThrow(/hard links/);
      expect(await readFile(join(dir, 'outside.txt'), 'utf8')).toBe('outside\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a flood of output does not fill the server's memory", () => {
  it('keeps the first and last 8 MB of a 40 MB run and says how much it dropped', async () => {
    const run = await runCommand("head -c 41943040 /dev/zero | tr '\\0' x; echo; echo last-line", tmpdir(), 60);
    expect(run.exitCode).toBe(0);
    expect(run.output.length).toBeLessThan(MAX_COLLECTED_BYTES + 100);
    expect(run.output).toMatch(/\[\.\.\. \d+ bytes of output dropped \.\.\.\]/);
    expect(run.output.endsWith('last-line\n')).toBe(true);
  });
});

describe('selectToolSandbox and the terminal.* settings (hook-semantics §5.9)', () => {
  it('reads terminal.sandbox and terminal.network; anything else warns and keeps the safe default', () => {
    const logger = createMemoryLogger();
    expect(toolPolicyFromConfig({ terminal: { sandbox: 'none', network: 'host' } }, undefined, logger)).toMatchObject({
      sandbox: 'none',
      network: 'host',
    });
    expect(toolPolicyFromConfig({}, undefined, logger)).toMatchObject({ sandbox: 'auto', network: 'none' });
    expect(logger.lines).toEqual([]);
    expect(toolPolicyFromConfig({ terminal: { sandbox: 'off', network: true } }, undefined, logger)).toMatchObject({
      sandbox: 'auto',
      network: 'none',
    });
    expect(logger.lines.map((l) => l.message)).toEqual([
      'terminal.sandbox: "off" is not one of auto, bwrap, none; using auto',
      'terminal.network: true is not one of none, host; using none',
    ]);
  });

  it('none: unsandboxed, with a warning to print at every start', () => {
    const choice = selectToolSandbox({ host: 'local', config: { ...DEFAULT_TOOL_POLICY, sandbox: 'none' } });
    expect(choice.sandbox.kind).toBe('none');
    expect(choice.notice).toMatch(/^terminal\.sandbox: none — the terminal and file tools run unsandboxed/);
  });

  it('in Lambda, never unsandboxed unless none: refused until the tools function is plugged in', async () => {
    const refused = selectToolSandbox({ host: 'lambda', config: DEFAULT_TOOL_POLICY });
    expect(refused.sandbox.kind).toBe('unavailable');
    expect(refused.notice).toMatch(/deploy the tools function, or set terminal\.sandbox: none/);
    const context = { sandbox: refused.sandbox, workspaceSession: { sessionId: 's' } } as unknown as ToolContext;
    await expect(terminalTool.run({ command: 'id' }, context)).rejects.toThrow(refused.notice!);
    expect(selectToolSandbox({ host: 'lambda', config: { ...DEFAULT_TOOL_POLICY, sandbox: 'none' } }).sandbox.kind).toBe('none');
    const tools = createUnsandboxed({ workspaceRoot: tmpdir() });
    expect(selectToolSandbox({ host: 'lambda', config: DEFAULT_TOOL_POLICY, lambda: () => tools }).sandbox).toBe(tools);
  });

  it.skipIf(!haveSandbox)('auto and bwrap: bubblewrap where the probe shows it runs', () => {
    for (const setting of ['auto', 'bwrap'] as const) {
      const choice = selectToolSandbox({ host: 'local', config: { ...DEFAULT_TOOL_POLICY, sandbox: setting } });
      expect(choice.sandbox.kind).toBe('bwrap');
      expect(choice.summary).toMatch(/^bwrap \(network: none;/);
    }
  });

  it('a session id never names a folder outside the workspace root', () => {
    expect(['..', '.', '', 'a/../..', 'x:1'].map((id) => workspaceDir('/r', id))).toEqual([
      '/r/_..',
      '/r/_.',
      '/r/_',
      '/r/a_.._..',
      '/r/x_1',
    ]);
  });

  it('sandboxEnvironment keeps only the directories that exist inside on PATH', () => {
    expect(
      sandboxEnvironment([], {
        PATH: '/root/.cargo/bin:/usr/local/bin:/usr/bin:relative',
        HOME: '/root',
        AWS_SECRET_ACCESS_KEY: 'x',
        TMPDIR: '/var/tmp',
      }),
    ).toEqual({
      PATH: '/usr/local/bin:/usr/bin',
      HOME: '/workspace',
      TMPDIR: '/tmp',
    });
  });
});

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  openSync,
  closeSync,
  ftruncateSync,
  rmSync,
  unlinkSync,
  writeSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { killGroup } from './direct-spawn.ts';
import { currentDirectory } from './current-directory.ts';
import { cutToCap, readCapturedFile, WATCH_INTERVAL_MS } from './captured-output.ts';
import { errorRecord, ranRecord, type ShellRunRecord } from './run-record.ts';
import { isProcessAlive } from './is-process-alive.ts';
import { DRIVER_SCRIPT, environmentFixup, runFileText } from './driver-script.ts';

/*
 * How shell hooks are spawned, here and on Lambda. Why (measured, see bench/shell-spawn.bench.ts
 * and docs/performance.md): Node's libuv (20 and 22 alike) spawns with plain fork(), which
 * copies the parent's page tables, so a spawn costs more the bigger the Node process is
 * (2.8 ms at 44 MB RSS, 11 ms at 430 MB), while Python uses vfork. A small long-lived `/bin/sh`
 * "driver" starts hooks for us instead (driver-script.ts: its program and protocol): its own
 * start of a process is cheap whatever size Node has grown to. Each driver is its own process
 * group (and session) and runs one hook at a time in that group, so a timeout SIGKILLs the group
 * — driver, hook and grandchildren — and the driver is replaced. stdin/stdout/stderr go through
 * files in a private 0700 temp dir: Node rewrites the stdin file in place through a descriptor it
 * holds; each run's output files are read back at most CAPTURE_LIMIT_BYTES, then removed, and
 * while a hook runs its output files are cut back to the cap (`cutToCap`: the hook writes with
 * O_APPEND, so the first bytes are kept and the disk use stays bounded). A driver's cwd and
 * environment are fixed at start (a driver whose cwd or env does not match the run's is not used
 * for it). A signal death is reported as -N, as on the exact path (see `statusFromShell`).
 */

const MAX_IDLE_DRIVERS = 8;

/** A request: one newline (driver-script.ts). */
const REQUEST = Buffer.from('\n');

type DriverProcess = ChildProcessByStdio<Writable, Readable, null>;

interface Driver {
  readonly id: number;
  readonly child: DriverProcess;
  /** The environment it was started with (its own copy), and how many variables that is. */
  readonly env: Readonly<Record<string, string>>;
  readonly envSize: number;
  readonly cwd: string;
  /** The stdin file, the run file and the output-file prefixes (run n writes `<out>n`, `<err>n`). */
  readonly files: { in: string; run: string; out: string; err: string };
  /** Node's descriptor of the stdin file (rewritten in place each run), -1 once closed. */
  inFd: number;
  /** Node's descriptor of the run file (`runFileText` and `envFixup`), and what it holds now. */
  runFd: number;
  runText: string;
  /** The lines that put back what the shell changed in its environment (`environmentFixup`). */
  readonly envFixup: string;
  /** How many runs were asked of this driver: the current (or last) one's output files end in it. */
  runs: number;
  alive: boolean;
  buffer: string;
  onLine?: (line: string) => void;
}

/*
 * A driver only takes runs whose env is the one it was started with. The caller passes the env
 * explicitly (no global state is watched or replaced); compared variable by variable, no string
 * built: ~1 µs for a plain object, ~50-70 µs for `process.env` itself (every key is a native getter).
 */
function envCopy(env: Readonly<NodeJS.ProcessEnv>): { env: Record<string, string>; envSize: number } {
  const copy: Record<string, string> = {};
  let envSize = 0;
  for (const name in env) {
    const value = env[name];
    if (value === undefined) continue;
    Object.defineProperty(copy, name, { value, enumerable: true });
    envSize++;
  }
  return { env: Object.freeze(copy), envSize };
}

function sameEnv(env: Readonly<NodeJS.ProcessEnv>, driver: Pick<Driver, 'env' | 'envSize'>): boolean {
  let size = 0;
  for (const name in env) {
    const value = env[name];
    if (value === undefined) continue;
    // An inherited property is never a string: no own-property check needed.
    if (driver.env[name] !== value) return false;
    size++;
  }
  return size === driver.envSize;
}

/**
 * A `$?` from the driver above 128 is how `sh` reports a signal death (128+N). Read it as
 * minus the signal number, as the exact path and Python's `subprocess.run` report it
 * (hook-semantics §3.5). A hook that itself exits with 129-192 is indistinguishable through
 * `sh`; it is read as a signal death too (docs/shell-hooks.md).
 */
export function statusFromShell(status: number): number {
  return status > 128 && status <= 128 + 64 ? -(status - 128) : status;
}

/**
 * A pool of `/bin/sh` drivers that spawn shell hooks cheaply (see the note above). Each run
 * gets exactly the `env` passed; drivers are kept per environment and working directory.
 * `run` answers `undefined` when it cannot take a run (no /bin/sh, a newline in an argument…),
 * and the caller falls back to Node's `spawn`. `shell` is for the tests and the bench, which
 * also try bash (Lambda's /bin/sh) on a machine whose /bin/sh is dash.
 *
 * @example
 * const record = await shellDriverPool().run(['/hooks/guard.sh'], payload, 60, process.env);
 */
export class ShellDriverPool {
  readonly #shell: string;
  #dir: string | undefined;
  #idle: Driver[] = [];
  #nextId = 0;
  #available: boolean;
  #doomed: string[] = [];

  constructor(options: { shell?: string } = {}) {
    this.#shell = options.shell ?? '/bin/sh';
    this.#available = existsSync(this.#shell) && process.platform !== 'win32';
  }

  /** Starts one driver ahead of the first run, so the first hook does not pay for it. */
  warm(env: Readonly<NodeJS.ProcessEnv>): void {
    if (!this.#available || this.#idle.length > 0) return;
    const cwd = currentDirectory();
    if (cwd === '') return;
    const driver = this.#start(env, cwd);
    if (driver) this.#idle.push(driver);
  }

  async run(
    argv: readonly string[],
    input: string,
    timeoutSeconds: number,
    env: Readonly<NodeJS.ProcessEnv>,
  ): Promise<ShellRunRecord | undefined> {
    if (!this.#available) return undefined;
    const cwd = currentDirectory();
    if (cwd === '' || cwd.includes('\n') || argv.some((word) => word.includes('\n') || word.includes('\0'))) return undefined;
    const driver = this.#acquire(env, cwd);
    if (!driver) return undefined;
    try {
      writeInput(driver.inFd, input);
      // The argv goes through a file the driver sources: a shell reads a pipe one byte at a
      // time, so the request itself is a bare newline. Rewritten only when it changes.
      const runText = runFileText(argv) + driver.envFixup;
      if (runText !== driver.runText) {
        writeInput(driver.runFd, runText);
        driver.runText = runText;
      }
    } catch {
      this.#retire(driver);
      return undefined;
    }
    // This run's output files (as the driver's counter, see driver-script.ts).
    driver.runs += 1;
    const outPath = driver.files.out + driver.runs;
    const errPath = driver.files.err + driver.runs;
    const start = performance.now();
    const deadline = start + timeoutSeconds * 1000;
    return new Promise<ShellRunRecord | undefined>((resolve) => {
      const cut = { out: false, err: false };
      // One timer per run for both the output watchdog and the timeout.
      const tick = () => {
        cut.out ||= cutToCap(outPath);
        cut.err ||= cutToCap(errPath);
        const left = deadline - performance.now();
        if (left > 0) {
          timer = setTimeout(tick, Math.min(WATCH_INTERVAL_MS, left));
          return;
        }
        this.#retire(driver);
        finish(null, true);
      };
      const finish = (returncode: number | null, timedOut: boolean) => {
        clearTimeout(timer);
        driver.onLine = undefined;
        const out = readCapturedFile(outPath);
        const err = readCapturedFile(errPath);
        resolve(ranRecord(returncode, { out, err }, { ...cut, timedOut }, start));
        // Read: removed once this turn of the event loop is over, not in the answer's path.
        this.#removeLater(outPath, errPath);
      };
      driver.onLine = (line) => {
        if (line[0] === 'c') {
          clearTimeout(timer);
          // Nothing ran: the caller falls back to the exact path. A scratch file is gone, so
          // this driver is done (what else it writes is ignored).
          driver.onLine = undefined;
          this.#retire(driver);
          resolve(undefined);
          return;
        }
        if (line === 'gone') {
          // The hook may have run in part: never run it twice, report a spawn failure.
          clearTimeout(timer);
          driver.onLine = undefined;
          this.#retire(driver);
          resolve({ ...errorRecord('shell hook runner exited unexpectedly', start) });
          return;
        }
        finish(statusFromShell(Number(line.slice(2))), false);
        this.#release(driver);
      };
      // The request first, the timer after: the driver wakes while Node finishes here.
      driver.child.stdin.write(REQUEST);
      let timer = setTimeout(tick, Math.min(WATCH_INTERVAL_MS, timeoutSeconds * 1000));
    });
  }

  /**
   * Kills the idle drivers (running hooks finish; new runs start new drivers). The scratch
   * dir stays until the process exits, since another engine may be mid-run.
   */
  close(): void {
    for (const driver of [...this.#idle]) this.#retire(driver);
    this.#idle = [];
  }

  #acquire(env: Readonly<NodeJS.ProcessEnv>, cwd: string): Driver | undefined {
    // The most recently used match; drivers no longer alive are dropped on the way. An idle
    // driver for another env or cwd stays (up to MAX_IDLE_DRIVERS), so that hooks given
    // different environments do not replace each other's drivers on every run.
    for (let i = this.#idle.length - 1; i >= 0; i--) {
      const driver = this.#idle[i]!;
      if (!driver.alive) {
        this.#retire(driver);
        continue;
      }
      if (driver.cwd === cwd && sameEnv(env, driver)) {
        this.#idle.splice(this.#idle.indexOf(driver), 1);
        return driver;
      }
    }
    return this.#start(env, cwd);
  }

  #release(driver: Driver): void {
    if (!driver.alive) {
      this.#retire(driver);
      return;
    }
    this.#idle.push(driver);
    // Over the cap: the least recently used idle driver goes.
    if (this.#idle.length > MAX_IDLE_DRIVERS) this.#retire(this.#idle[0]!);
  }

  /** Unlinks `paths` on the next turn of the event loop (together with any others by then). */
  #removeLater(...paths: string[]): void {
    if (this.#doomed.length === 0)
      setImmediate(() => {
        const doomed = this.#doomed;
        this.#doomed = [];
        for (const path of doomed) unlinkQuietly(path);
      }).unref();
    this.#doomed.push(...paths);
  }

  #retire(driver: Driver): void {
    if (driver.alive) {
      driver.alive = false;
      killGroup(driver.child);
    }
    this.#idle = this.#idle.filter((d) => d !== driver);
    if (driver.inFd >= 0) {
      closeQuietly(driver.inFd);
      closeQuietly(driver.runFd);
      driver.inFd = -1;
      // The scratch files, and the output files of the current run and of the next (a subshell
      // forked ahead has them open).
      const { files, runs } = driver;
      for (const path of [
        files.in,
        files.run,
        files.out + runs,
        files.err + runs,
        files.out + (runs + 1),
        files.err + (runs + 1),
      ])
        unlinkQuietly(path);
    }
  }

  #start(env: Readonly<NodeJS.ProcessEnv>, cwd: string): Driver | undefined {
    // A variable no shell can hand on (`A-B`): Node's spawn runs the hook with it.
    const copy = envCopy(env);
    const envFixup = environmentFixup(copy.env);
    if (envFixup === undefined) return undefined;
    const fds: number[] = [];
    try {
      if (!this.#dir) {
        const root = scratchRoot();
        removeStaleScratchDirs(root);
        this.#dir = mkdtempSync(join(root, `hookgate-sh-${process.pid}-`));
        const dir = this.#dir;
        process.once('exit', () => {
          // A driver still creating its next output files can race the removal (ENOTEMPTY), and
          // rmSync's own retries do not list the dir again: try afresh a few times. An exit
          // handler must never throw; a leftover is swept by the next process's start.
          for (let attempt = 0; attempt < 3; attempt++) {
            try {
              rmSync(dir, { recursive: true, force: true });
              break;
            } catch {
              // again, or left for removeStaleScratchDirs
            }
          }
        });
      }
      const id = this.#nextId++;
      const base = join(this.#dir, String(id));
      const files = { in: `${base}.in`, run: `${base}.run`, out: `${base}.out`, err: `${base}.err` };
      // The stdin file exists before the driver starts: a subshell forked ahead opens it at once.
      const inFd = openSync(files.in, 'w', 0o600);
      fds.push(inFd);
      const runFd = openSync(files.run, 'w', 0o600);
      fds.push(runFd);
      const child = spawn(this.#shell, ['-c', DRIVER_SCRIPT, 'hookgate-driver', files.in, files.out, files.err, files.run], {
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
        cwd,
        env,
      });
      const driver: Driver = {
        id,
        child,
        ...copy,
        cwd,
        files,
        inFd,
        runFd,
        runText: '',
        envFixup,
        runs: 0,
        alive: true,
        buffer: '',
      };
      child.on('error', () => {
        // Also raised after a good spawn (a failed kill, a broken pipe): its group goes as on exit.
        if (driver.alive) {
          driver.alive = false;
          killGroup(child);
        }
        driver.onLine?.('gone');
      });
      child.on('exit', () => {
        // Died by itself (a hook killed its parent): what is left of its group (the waiting
        // subshell, a hook) goes now, while the group id is still theirs, not at a later retire.
        if (driver.alive) {
          driver.alive = false;
          killGroup(child);
        }
        driver.onLine?.('gone');
      });
      child.stdin.on('error', () => {});
      // The driver's lines are short ASCII (`x <status>`, `c…`): split the raw chunk, no decoder.
      child.stdout.on('data', (chunk: Buffer) => {
        let from = 0;
        let nl: number;
        while ((nl = chunk.indexOf(10, from)) >= 0) {
          const line = driver.buffer + chunk.toString('latin1', from, nl);
          driver.buffer = '';
          from = nl + 1;
          driver.onLine?.(line);
        }
        if (from < chunk.length) driver.buffer += chunk.toString('latin1', from);
      });
      // Idle drivers never keep the process alive; a running hook's timeout timer does.
      child.unref();
      (child.stdin as unknown as { unref?: () => void }).unref?.();
      (child.stdout as unknown as { unref?: () => void }).unref?.();
      return driver;
    } catch {
      for (const fd of fds) closeQuietly(fd);
      this.#available = false;
      return undefined;
    }
  }
}

/**
 * Where the per-driver files live: a tmpfs (`/dev/shm`) when there is one — creating and
 * removing files there costs ~80 µs per hook against ~240 µs on this machine's ext4 /tmp —
 * else the OS temp dir (Lambda has no /dev/shm; its /tmp is used).
 */
function scratchRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    if (statSync('/dev/shm').isDirectory()) return '/dev/shm';
  } catch {
    // not available
  }
  return tmpdir();
}

/**
 * Removes scratch dirs left by processes that died without their `exit` handler (a SIGKILL,
 * a killed test worker): `hookgate-sh-<pid>-…` whose pid no longer exists.
 */
function removeStaleScratchDirs(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^hookgate-sh-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid || isProcessAlive(Number(m[1]))) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // another process's, or already gone
    }
  }
}

/**
 * Replaces a scratch file's content in place (same inode: the driver opens it by name, a subshell
 * forked ahead has it open). The string is written as it is, not through a Buffer of our own.
 */
function writeInput(fd: number, input: string): void {
  const length = Buffer.byteLength(input, 'utf8');
  if (writeSync(fd, input, 0, 'utf8') < length) {
    const bytes = Buffer.from(input, 'utf8');
    let written = 0;
    while (written < length) written += writeSync(fd, bytes, written, length - written, written);
  }
  ftruncateSync(fd, length);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created or already gone
  }
}

let shared: ShellDriverPool | undefined;

/** The process-wide pool (one set of drivers however many engines are loaded). */
export function shellDriverPool(): ShellDriverPool {
  shared ??= new ShellDriverPool();
  return shared;
}

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, openSync, closeSync, readSync, fstatSync, rmSync, truncateSync, unlinkSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { killGroup } from './direct-spawn.ts';
import { currentDirectory } from './shell-payload.ts';
import { CAPTURE_LIMIT_BYTES, errorRecord, roundSeconds, type ShellRunRecord } from './run-record.ts';

/*
 * Why this exists (measured, see bench/shell-spawn.bench.ts and docs/shell-hooks.md):
 * Node 20's libuv spawns with plain fork(), which copies the parent's page tables, so a
 * spawn costs more the bigger the Node process is (2.8 ms at 44 MB RSS, 11 ms at 430 MB),
 * while Python uses vfork. A small long-lived `/bin/sh` "driver" forks for us instead: its
 * fork is cheap whatever size Node has grown to. Each driver is its own process group (and
 * session) and runs one hook at a time in that group, so a timeout SIGKILLs the group —
 * driver, hook and grandchildren — and the driver is replaced. stdin/stdout/stderr go
 * through files in a private 0700 temp dir; output is read back at most CAPTURE_LIMIT_BYTES,
 * and a watchdog truncates an output file that grows past it (the files are opened O_APPEND,
 * so the first bytes are kept and the disk use stays bounded).
 * Known difference: via the driver a signal death reports 128+N (what `$?` says) rather
 * than -N; `hookgate hooks test`/`doctor` use the exact path.
 */

// The driver keeps one subshell forked ahead, blocked reading the next request from fd 3 (the
// request pipe), so the hot path has no fork at all: the request (just the quoted argv) wakes
// that subshell, which `exec`s the hook in place; the driver `wait`s for it and reports
// `x <status>`, then forks the next subshell while Node handles the result. The driver's own
// stdin/stdout/stderr files are its positional parameters; its cwd and environment are
// fixed at start (a driver whose cwd or env no longer matches is replaced). `c` = nothing ran
// (the input file is gone): the caller falls back to the exact path — checked first because a
// failed redirection would look like `exit 2`. On end of input (Node went away) the subshell
// kills the driver (`$$` is the driver's pid). The subshell is a foreground one on purpose:
// an asynchronous list (`&`) would start the hook with SIGINT and SIGQUIT ignored.
const DRIVER_SCRIPT =
  'i=$1; o=$2; e=$3; exec 3<&0 0</dev/null; ' +
  'while :; do ( IFS= read -r l <&3 || kill -KILL $$; [ -f "$i" ] || { echo c; exit 0; }; ' +
  'eval "set -- $l"; exec "$@" <"$i" >>"$o" 2>>"$e" 3<&- ); echo "x $?"; done';

const MAX_IDLE_DRIVERS = 8;
const WATCHDOG_MS = 200;

type DriverProcess = ChildProcessByStdio<Writable, Readable, null>;

interface Driver {
  readonly id: number;
  readonly child: DriverProcess;
  readonly envKey: string;
  readonly cwd: string;
  readonly files: { in: string; out: string; err: string };
  alive: boolean;
  buffer: string;
  onLine?: (line: string) => void;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/*
 * Environment-change detection. Hooks must inherit the environment as it is when they fire,
 * and a driver holds the one it started with. Enumerating process.env costs ~130-170 µs here
 * (every key is a native getter) — as much as the rest of the Node side together — so writes
 * are counted instead: process.env is wrapped once in a Proxy that bumps a version on every
 * set/delete/define. Reads are untouched; a wholesale `process.env = …` replaces the wrapper,
 * which is noticed (identity check) and counts as a change.
 */
let envVersion = 0;
let wrappedEnv: NodeJS.ProcessEnv | undefined;

function envKeyOf(): string {
  if (process.env !== wrappedEnv) {
    const target = process.env;
    wrappedEnv = new Proxy(target, {
      set(t, key, value) {
        envVersion++;
        return Reflect.set(t, key, value);
      },
      deleteProperty(t, key) {
        envVersion++;
        return Reflect.deleteProperty(t, key);
      },
      defineProperty(t, key, descriptor) {
        envVersion++;
        return Reflect.defineProperty(t, key, descriptor);
      },
    });
    process.env = wrappedEnv;
    envVersion++;
  }
  return String(envVersion);
}

/**
 * A pool of `/bin/sh` drivers that spawn shell hooks cheaply (see the note above).
 * `run` answers `undefined` when it cannot take a run (no /bin/sh, a newline in an argument…),
 * and the caller falls back to Node's `spawn`.
 *
 * @example
 * const record = await shellDriverPool().run(['/hooks/guard.sh'], payload, 60);
 */
export class ShellDriverPool {
  #dir: string | undefined;
  #idle: Driver[] = [];
  #nextId = 0;
  #available = existsSync('/bin/sh') && process.platform !== 'win32';

  /** Starts one driver ahead of the first run, so the first hook does not pay for it. */
  warm(): void {
    if (!this.#available || this.#idle.length > 0) return;
    const cwd = currentDirectory();
    if (cwd === '') return;
    const driver = this.#start(envKeyOf(), cwd);
    if (driver) this.#idle.push(driver);
  }

  async run(argv: readonly string[], input: string, timeoutSeconds: number): Promise<ShellRunRecord | undefined> {
    if (!this.#available) return undefined;
    const cwd = currentDirectory();
    if (cwd === '' || cwd.includes('\n') || argv.some((word) => word.includes('\n') || word.includes('\0'))) return undefined;
    const driver = this.#acquire(cwd);
    if (!driver) return undefined;
    const files = driver.files;
    try {
      writeFileSync(files.in, input);
    } catch {
      this.#retire(driver);
      return undefined;
    }
    const start = performance.now();
    return new Promise<ShellRunRecord | undefined>((resolve) => {
      let timedOut = false;
      let truncated = { out: false, err: false };
      const timer = setTimeout(() => {
        timedOut = true;
        this.#retire(driver);
        finish(null);
      }, timeoutSeconds * 1000);
      let watchdog: NodeJS.Timeout | undefined = setTimeout(function check() {
        truncated = { out: truncated.out || capFile(files.out), err: truncated.err || capFile(files.err) };
        watchdog = setTimeout(check, WATCHDOG_MS);
        watchdog.unref();
      }, WATCHDOG_MS);
      watchdog.unref();
      const finish = (returncode: number | null) => {
        clearTimeout(timer);
        if (watchdog) clearTimeout(watchdog);
        driver.onLine = undefined;
        const out = readCapped(files.out);
        const err = readCapped(files.err);
        resolve({
          returncode: timedOut ? null : returncode,
          stdout: out.text,
          stderr: err.text,
          timed_out: timedOut,
          elapsed_seconds: roundSeconds(performance.now() - start),
          error: null,
          stdout_truncated: truncated.out || out.truncated,
          stderr_truncated: truncated.err || err.truncated,
        });
      };
      driver.onLine = (line) => {
        if (line === 'c') {
          clearTimeout(timer);
          if (watchdog) clearTimeout(watchdog);
          // Nothing ran: the caller falls back to the exact path; the driver's own `x` line
          // for this request follows, and only then is the driver free again.
          driver.onLine = (next) => {
            driver.onLine = undefined;
            if (next.startsWith('x ')) this.#release(driver);
            else this.#retire(driver);
          };
          resolve(undefined);
          return;
        }
        if (line === 'gone') {
          // The hook may have run in part: never run it twice, report a spawn failure.
          clearTimeout(timer);
          if (watchdog) clearTimeout(watchdog);
          driver.onLine = undefined;
          this.#retire(driver);
          resolve({ ...errorRecord('shell hook runner exited unexpectedly', start) });
          return;
        }
        finish(Number(line.slice(2)));
        this.#release(driver);
      };
      driver.child.stdin.write(`${argv.map(quote).join(' ')}\n`);
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

  #acquire(cwd: string): Driver | undefined {
    const envKey = envKeyOf();
    while (this.#idle.length > 0) {
      const driver = this.#idle.pop()!;
      if (driver.alive && driver.envKey === envKey && driver.cwd === cwd) return driver;
      this.#retire(driver); // env or cwd changed since it started: hooks inherit the current ones
    }
    return this.#start(envKey, cwd);
  }

  #release(driver: Driver): void {
    if (driver.alive && this.#idle.length < MAX_IDLE_DRIVERS) this.#idle.push(driver);
    else this.#retire(driver);
  }

  #retire(driver: Driver): void {
    driver.alive = false;
    killGroup(driver.child.pid);
    this.#idle = this.#idle.filter((d) => d !== driver);
  }

  #start(envKey: string, cwd: string): Driver | undefined {
    try {
      if (!this.#dir) {
        const root = scratchRoot();
        removeStaleScratchDirs(root);
        this.#dir = mkdtempSync(join(root, `hookgate-sh-${process.pid}-`));
        const dir = this.#dir;
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      }
      const id = this.#nextId++;
      const files = { in: join(this.#dir, `${id}.in`), out: join(this.#dir, `${id}.out`), err: join(this.#dir, `${id}.err`) };
      const child = spawn('/bin/sh', ['-c', DRIVER_SCRIPT, 'hookgate-driver', files.in, files.out, files.err], {
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
        cwd,
      });
      const driver: Driver = { id, child, envKey, cwd, files, alive: true, buffer: '' };
      child.on('error', () => {
        driver.alive = false;
        driver.onLine?.('gone');
      });
      child.on('exit', () => {
        driver.alive = false;
        driver.onLine?.('gone');
      });
      child.stdin.on('error', () => {});
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        driver.buffer += chunk;
        let nl: number;
        while ((nl = driver.buffer.indexOf('\n')) >= 0) {
          const line = driver.buffer.slice(0, nl);
          driver.buffer = driver.buffer.slice(nl + 1);
          driver.onLine?.(line);
        }
      });
      // Idle drivers never keep the process alive; a running hook's timeout timer does.
      child.unref();
      (child.stdin as unknown as { unref?: () => void }).unref?.();
      (child.stdout as unknown as { unref?: () => void }).unref?.();
      return driver;
    } catch {
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
    if (!m || Number(m[1]) === process.pid || isAlive(Number(m[1]))) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // another process's, or already gone
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Truncates an output file that grew past the cap; true if it did. */
function capFile(path: string): boolean {
  try {
    if (statSync(path).size <= CAPTURE_LIMIT_BYTES) return false;
    truncateSync(path, CAPTURE_LIMIT_BYTES);
    return true;
  } catch {
    return false;
  }
}

/** Reads at most the cap from a hook's output file, then removes the file. */
function readCapped(path: string): { text: string; truncated: boolean } {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, CAPTURE_LIMIT_BYTES));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString('utf8'), truncated: size > CAPTURE_LIMIT_BYTES };
  } catch {
    return { text: '', truncated: false };
  } finally {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // never created (the hook's redirection failed) or already gone
    }
  }
}

let shared: ShellDriverPool | undefined;

/** The process-wide pool (one set of drivers however many engines are loaded). */
export function shellDriverPool(): ShellDriverPool {
  shared ??= new ShellDriverPool();
  return shared;
}

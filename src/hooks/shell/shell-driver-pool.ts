import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readSync, fstatSync, rmSync, truncateSync, unlinkSync, writeFileSync, statSync } from 'node:fs';
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
// request pipe), so the hot path has no fork at all: the request wakes that subshell, which
// `exec`s the hook in place; the driver `wait`s for it and reports `x <status>`, then forks
// the next subshell while Node handles the result (measured: ~35% faster than forking per
// request). `c` = nothing ran (cwd or input file gone): the caller falls back to the exact
// path. The input check comes first because a failed redirection would look like `exit 2`.
// On end of input (Node went away) the subshell kills the driver (`$$` is the driver's pid).
const DRIVER_SCRIPT =
  'exec 3<&0 0</dev/null; ' +
  'r() { cd -- "$1" 2>/dev/null && [ -f "$2" ] || { echo c; exit 0; }; i=$2; o=$3; e=$4; shift 4; ' +
  'exec "$@" <"$i" >>"$o" 2>>"$e" 3<&-; }; ' +
  'while :; do { IFS= read -r l <&3 || kill -KILL $$; eval "r $l"; } & wait $!; echo "x $?"; done';

const MAX_IDLE_DRIVERS = 8;
const WATCHDOG_MS = 200;

type DriverProcess = ChildProcessByStdio<Writable, Readable, null>;

interface Driver {
  readonly id: number;
  readonly child: DriverProcess;
  readonly envKey: string;
  alive: boolean;
  buffer: string;
  onLine?: (line: string) => void;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function envKeyOf(env: NodeJS.ProcessEnv): string {
  let key = '';
  for (const name in env) key += `${name}=${env[name]}\0`;
  return key;
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
    const driver = this.#start(envKeyOf(process.env));
    if (driver) this.#idle.push(driver);
  }

  async run(argv: readonly string[], input: string, timeoutSeconds: number): Promise<ShellRunRecord | undefined> {
    if (!this.#available) return undefined;
    const cwd = currentDirectory();
    if (cwd === '' || cwd.includes('\n') || argv.some((word) => word.includes('\n') || word.includes('\0'))) return undefined;
    const driver = this.#acquire();
    if (!driver) return undefined;
    const dir = this.#dir!;
    const files = { in: join(dir, `${driver.id}.in`), out: join(dir, `${driver.id}.out`), err: join(dir, `${driver.id}.err`) };
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
      driver.child.stdin.write(`${[cwd, files.in, files.out, files.err, ...argv].map(quote).join(' ')}\n`);
    });
  }

  /** Kills every driver and removes the temp dir. */
  close(): void {
    for (const driver of this.#idle) this.#retire(driver);
    this.#idle = [];
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }

  #acquire(): Driver | undefined {
    const envKey = envKeyOf(process.env);
    while (this.#idle.length > 0) {
      const driver = this.#idle.pop()!;
      if (driver.alive && driver.envKey === envKey) return driver;
      this.#retire(driver); // the environment changed since it started: hooks inherit the current one
    }
    return this.#start(envKey);
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

  #start(envKey: string): Driver | undefined {
    try {
      if (!this.#dir) {
        this.#dir = mkdtempSync(join(tmpdir(), 'hookgate-sh-'));
        const dir = this.#dir;
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      }
      const child = spawn('/bin/sh', ['-c', DRIVER_SCRIPT], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
      const driver: Driver = { id: this.#nextId++, child, envKey, alive: true, buffer: '' };
      child.on('error', () => {
        this.#available = false;
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

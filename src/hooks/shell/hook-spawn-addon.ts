import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { readCapturedOutput, watchCapturedOutput } from './captured-output.ts';
import { killGroup, spawnErrorText } from './direct-spawn.ts';
import { errorRecord, ranRecord, type ShellRunRecord } from './run-record.ts';

/*
 * The fastest way to run a shell hook here: `native/hook-spawn.c`, compiled at `npm install`
 * (scripts/build-native.mjs), spawns the hook from Node's own process with posix_spawn —
 * vfork semantics, so no page-table copy however big Node has grown — and reports its exit
 * through a pidfd watched on Node's event loop. That is Python's `subprocess.run` model with
 * no helper process in between: the /bin/sh driver (shell-driver-pool.ts) costs two more
 * process wake-ups per run, which is what kept it slower than Python (docs/shell-hooks.md).
 * stdin/stdout/stderr are memfds; output is read once the hook has exited, at most the
 * capture cap, and then sealed so a grandchild that outlives the hook cannot grow it.
 * Where the addon is not built (no compiler at install, not Linux, another CPU architecture
 * such as the arm64 Lambda bundle), cannot load, or the kernel lacks pidfd (Linux < 5.3),
 * `runWithHookSpawnAddon` answers `undefined` and the caller uses the driver.
 */

interface HookSpawnAddon {
  /** Spawns `file` with `argv`; `onExit` once it has exited and been reaped. → [pid, stdoutFd, stderrFd] */
  spawn(
    file: string,
    argv: readonly string[],
    input: Buffer,
    onExit: (code: number | null, signal: number | null) => void,
    withheld?: readonly string[],
  ): [number, number, number];
  /** Empties an output memfd, seals it against growth and closes it. */
  seal(fd: number): void;
  /** Whether the kernel has pidfd_open and sealable memfds. */
  supported(): boolean;
}

const ADDON_FILE = join('build', 'Release', 'hook-spawn.node');

let addon: HookSpawnAddon | null | undefined;

/** The loaded addon, or `null` where it cannot be used (decided once per process). */
function loadAddon(): HookSpawnAddon | null {
  if (addon !== undefined) return addon;
  addon = null;
  // HOOKGATE_NATIVE_SPAWN=0 turns it off (a fault in native code would take the process down).
  // Not in a worker thread: hooks inherit process.env, and a worker's is a copy, while the
  // addon hands the process-wide environment to the hook.
  if (process.platform !== 'linux' || !isMainThread || process.env.HOOKGATE_NATIVE_SPAWN === '0') return addon;
  const require = createRequire(import.meta.url);
  // The package root holds build/: three levels up from src/hooks/shell, four from dist/src/hooks/shell.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 5; level++, dir = dirname(dir)) {
    const candidate = join(dir, ADDON_FILE);
    if (!existsSync(candidate)) continue;
    try {
      const loaded = require(candidate) as HookSpawnAddon;
      if (loaded.supported()) addon = loaded;
    } catch {
      // built for another architecture or Node ABI: the driver takes over
    }
    break;
  }
  return addon;
}

/** Whether shell hooks run through the native spawner in this process. */
export function hookSpawnAddonAvailable(): boolean {
  return loadAddon() !== null;
}

/**
 * Runs `argv` with `program` (its resolved path) through the native spawner, the process's
 * environment minus the `withheld` names (`HookEnvironment.withheld`): stdin =
 * `input`, bounded capture, SIGKILL of the hook's process group on timeout, exact exit
 * statuses (minus the signal number for a signal death). `undefined` where the addon is
 * not available. Never rejects.
 *
 * @example
 * const record = await (runWithHookSpawnAddon('/hooks/guard.sh', ['/hooks/guard.sh'], payload, 60) ?? fallback());
 */
export function runWithHookSpawnAddon(
  program: string,
  argv: readonly string[],
  input: string,
  timeoutSeconds: number,
  withheld: readonly string[] = [],
): Promise<ShellRunRecord> | undefined {
  const native = loadAddon();
  if (!native) return undefined;
  const start = performance.now();
  return new Promise<ShellRunRecord>((resolve) => {
    let fds: [number, number, number];
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let watch: ReturnType<typeof watchCapturedOutput>; // set right after the spawn, before any exit can be reported
    // Called once, when the pidfd says the hook exited (also after a timeout kill, and with
    // nulls should someone else have reaped it).
    const onExit = (code: number | null, signal: number | null) => {
      clearTimeout(timer);
      watch.stop();
      const [, outFd, errFd] = fds;
      const out = readCapturedOutput(outFd);
      const err = readCapturedOutput(errFd);
      native.seal(outFd);
      native.seal(errFd);
      resolve(ranRecord(code ?? (signal === null ? null : -signal), { out, err }, { ...watch.cut, timedOut }, start));
    };
    try {
      fds = native.spawn(program, argv, Buffer.from(input, 'utf8'), onExit, withheld);
    } catch (error) {
      resolve(errorRecord(spawnErrorText(withCode(error)), start));
      return;
    }
    const [pid, outFd, errFd] = fds;
    timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid); // its exit is then reported as usual
    }, timeoutSeconds * 1000);
    watch = watchCapturedOutput(outFd, errFd);
  });
}

/** The addon's errors carry `errno`; spawnErrorText classifies by Node's `code` names. */
function withCode(error: unknown): unknown {
  const errno = (error as { errno?: unknown })?.errno;
  if (typeof errno !== 'number') return error;
  const name = Object.entries(constants.errno).find(([, value]) => value === errno)?.[0];
  return Object.assign(error as object, { code: name });
}

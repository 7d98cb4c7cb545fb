import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { CAPTURE_LIMIT_BYTES, errorRecord, roundSeconds, type ShellRunRecord } from './run-record.ts';
import { firstExecutable, startsLikeAProgram } from './resolve-program.ts';
import { currentDirectory } from './current-directory.ts';
import { CommandNotExecutableError, CommandNotFoundError } from './shell-errors.ts';
import { errorText } from '../../../errors/error-text.ts';

/**
 * Runs argv with Node's own `spawn`, in a new process group, with exactly `env`, stdin =
 * `input`, bounded capture, SIGKILL of the whole group on timeout. The exact path: used for
 * the CLI, and as the fallback whenever the driver cannot take a run (see `shell-driver-pool.ts`).
 *
 * @example
 * const record = await spawnDirect(['/bin/echo', 'hi'], '', 60, process.env);
 * record.stdout // 'hi\n'
 */
export function spawnDirect(
  argv: readonly string[],
  input: string,
  timeoutSeconds: number,
  env: Readonly<NodeJS.ProcessEnv>,
): Promise<ShellRunRecord> {
  const start = performance.now();
  const cwd = currentDirectory();
  // A working directory that is gone: nothing to resolve a relative path against; spawn decides.
  const program = cwd === '' ? undefined : firstExecutable(argv[0]!, env.PATH, cwd);
  if (program !== undefined && !startsLikeAProgram(program)) {
    // execvp would run it with /bin/sh; the reference's execve fails (there is never a shell, §3.5).
    return Promise.resolve(errorRecord(`[Errno 8] Exec format error: '${argv[0]}'`, start));
  }
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: 'pipe', windowsHide: true, env });
    } catch (error) {
      resolve(errorRecord(spawnErrorText(error), start));
      return;
    }
    const out = new BoundedCapture();
    const err = new BoundedCapture();
    let timedOut = false;
    let failed: string | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutSeconds * 1000);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // A hook that exits without reading stdin is not an error (§3.5 step 3).
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      failed = spawnErrorText(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failed !== null && child.pid === undefined) {
        resolve(errorRecord(failed, start));
        return;
      }
      resolve({
        returncode: timedOut ? null : (code ?? (signal ? -(constants.signals[signal] ?? 0) : null)),
        stdout: out.text(),
        stderr: err.text(),
        timed_out: timedOut,
        elapsed_seconds: roundSeconds(performance.now() - start),
        error: timedOut ? null : failed,
        stdout_truncated: out.truncated,
        stderr_truncated: err.truncated,
      });
    });
    if (child.pid !== undefined) child.stdin.end(input);
  });
}

/**
 * SIGKILLs a whole process group (the child is its leader), falling back to the child itself.
 * The group id still means the group after the leader has exited: the kernel does not reuse a
 * pid while it names a live process group (with no member left, only a new group leader given
 * that very number could be hit). A bare pid is reused freely: once Node has reaped the child,
 * its number may name any other process (`pid_max` is 32768 on many hosts), so the fallback
 * goes through `child.kill`, which does nothing once the child is reaped.
 *
 * @example
 * const timer = setTimeout(() => killGroup(child), timeoutSeconds * 1000);
 */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Maps spawn failures to the §3.5 step 4 classes. */
export function spawnErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new CommandNotFoundError().message;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') return new CommandNotExecutableError().message;
  return errorText(error);
}

/** Keeps the first {@link CAPTURE_LIMIT_BYTES} bytes of a stream, drops the rest. */
class BoundedCapture {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  truncated = false;

  push(chunk: Buffer): void {
    const room = CAPTURE_LIMIT_BYTES - this.#size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.#chunks.push(kept);
    this.#size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

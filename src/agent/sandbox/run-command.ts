import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { terminalEnvironment } from './terminal-environment.ts';

/** What `runCommand` reports: combined output and exit code (124 on timeout, like `timeout(1)`). */
export interface CommandRun {
  output: string;
  exitCode: number;
  timedOut: boolean;
}

/**
 * Most output one run keeps in memory: the first and the last half of it. The model sees at
 * most 50 KB (terminal-output.ts) anyway; this only keeps `yes` from filling the server's memory.
 */
export const MAX_COLLECTED_BYTES = 16 * 1024 * 1024;

/** Keeps the first and the last `limit / 2` bytes of a stream, and counts what it dropped between. */
class HeadTail {
  readonly head: Buffer[] = [];
  tail: Buffer[] = [];
  headBytes = 0;
  tailBytes = 0;
  dropped = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    const half = this.limit / 2;
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > half && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }
  concat(): Buffer {
    const marker = this.dropped > 0 ? [Buffer.from(`\n[... ${this.dropped} bytes of output dropped ...]\n`)] : [];
    return Buffer.concat([...this.head, ...marker, ...this.tail]);
  }
}

/** One program to run under `runProcess`. */
export interface ProcessSpec {
  file: string;
  args: readonly string[];
  /** The program's whole environment. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this host user and group (the supplementary groups are cleared). */
  uid?: number;
  gid?: number;
  /** Written to stdin, then closed (without it stdin is /dev/null). */
  stdin?: string | Buffer;
  /** Written to the extra file descriptors 3, 4, … in order, each then closed (bwrap's `--ro-bind-data`). */
  inputs?: readonly (string | Buffer)[];
  /** One more descriptor after `inputs`, which the program writes to: collected as `fdOutput` (bwrap's `--json-status-fd`). */
  collectFd?: boolean;
  timeoutSeconds: number;
  signal?: AbortSignal;
}

/** What `runProcess` reports: the output in arrival order and each stream apart. */
export interface ProcessRun extends CommandRun {
  stdout: Buffer;
  stderr: Buffer;
  /** What the program wrote to the `collectFd` descriptor. */
  fdOutput?: string;
}

/**
 * Runs a program in its own process group with stdout and stderr collected, killing the
 * whole group on timeout or abort (exit code 124 on timeout, like `timeout(1)`).
 *
 * @example
 * const run = await runProcess({ file: '/bin/echo', args: ['hi'], env: {}, timeoutSeconds: 5 }); // run.output === 'hi\n'
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const extra = [...(spec.inputs ?? []), ...(spec.collectFd ? [''] : [])].map(() => 'pipe' as const);
    const child = spawn(spec.file, [...spec.args], {
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
      ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
      detached: true,
      stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...extra],
      env: spec.env,
    });
    const chunks = new HeadTail(MAX_COLLECTED_BYTES);
    const out = new HeadTail(MAX_COLLECTED_BYTES);
    const err = new HeadTail(MAX_COLLECTED_BYTES);
    child.stdout!.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      out.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      err.push(chunk);
    });
    const feed = (stream: unknown, data: string | Buffer) => {
      const writable = stream as Writable | null;
      // EPIPE when the program exits without reading: its exit code says what happened.
      writable?.on('error', () => {});
      writable?.end(data);
    };
    if (spec.stdin !== undefined) feed(child.stdin, spec.stdin);
    for (const [i, input] of (spec.inputs ?? []).entries()) feed(child.stdio[3 + i], input);
    const fdChunks: Buffer[] = [];
    if (spec.collectFd)
      (child.stdio[3 + (spec.inputs?.length ?? 0)] as NodeJS.ReadableStream | null)?.on('data', (chunk: Buffer) =>
        fdChunks.push(chunk),
      );
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutSeconds * 1000);
    spec.signal?.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', kill);
      const output = chunks.concat().toString('utf8');
      resolve({
        output,
        stdout: out.concat(),
        stderr: err.concat(),
        ...(spec.collectFd ? { fdOutput: Buffer.concat(fdChunks).toString('utf8') } : {}),
        exitCode: timedOut ? 124 : (code ?? (sig ? 128 + 9 : 1)),
        timedOut,
      });
    });
  });
}

/**
 * Runs `command` with `/bin/sh -c` in `cwd` with `env` (default: the terminal environment,
 * terminal-environment.ts), stdout and stderr combined, in its own process group so a
 * timeout kills the whole tree.
 *
 * @example
 * const run = await runCommand('echo hi', '/tmp', 10); // { output: 'hi\n', exitCode: 0, timedOut: false }
 */
export async function runCommand(
  command: string,
  cwd: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = terminalEnvironment(),
): Promise<CommandRun> {
  const run = await runProcess({
    file: '/bin/sh',
    args: ['-c', command],
    cwd,
    env,
    timeoutSeconds,
    ...(signal ? { signal } : {}),
  });
  return { output: run.output, exitCode: run.exitCode, timedOut: run.timedOut };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from './until.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
const SERVING = /serving (http:\/\/127\.0\.0\.1:\d+)/;

/** A real `hookgate dev` child process, serving. */
export interface DevChild {
  readonly child: ChildProcess;
  /** Where it serves (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** What it printed so far on stdout only. */
  stdout(): string;
  /** What it printed so far on stderr only. */
  stderr(): string;
  /** Resolves with its exit code (null when a signal ended it) once it has exited, even if that was before the call. */
  waitForExit(): Promise<number | null>;
  /**
   * Sends `signal` (SIGTERM unless given), then waits for it to exit (nothing if it already has).
   * With `killAfterMs`, a child still running that long after the signal gets SIGKILL.
   *
   * @example
   * await dev.stop('SIGKILL'); // kill -9
   * await dev.stop('SIGTERM', { killAfterMs: 10_000 });
   */
  stop(signal?: NodeJS.Signals, options?: { killAfterMs?: number }): Promise<void>;
}

/**
 * Starts `hookgate dev --port 0 …args` with `env` in `cwd` and waits for its banner (and `ready`,
 * if given); fails at once, with what it printed, if it exits first. A child that has not served
 * within `timeoutMs` (60 s unless given) gets SIGKILL before the wait fails.
 *
 * @example
 * const dev = await startDevChild(['--home', home, '--no-watch'], { cwd: root, env });
 * await fetch(`${dev.url}/healthz`);
 * await dev.stop();
 */
export async function startDevChild(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready?: (output: string) => boolean; timeoutMs?: number },
): Promise<DevChild> {
  const child = spawn(process.execPath, [BIN, 'dev', '--port', '0', ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  let url = '';
  try {
    await until(
      () => {
        if (child.exitCode !== null) throw new Error(`hookgate dev exited with ${child.exitCode}:\n${output}`);
        url = SERVING.exec(output)?.[1] ?? '';
        return url !== '' && (options.ready?.(output) ?? true);
      },
      'the dev banner',
      { timeoutMs: options.timeoutMs ?? 60_000, context: () => output },
    );
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    url,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    waitForExit: () => exited,
    async stop(signal = 'SIGTERM', { killAfterMs } = {}) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      if (killAfterMs === undefined) {
        await exited;
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), killAfterMs)));
      if ((await Promise.race([exited, late])) === 'late') {
        child.kill('SIGKILL');
        await exited;
      }
      clearTimeout(timer);
    },
  };
}

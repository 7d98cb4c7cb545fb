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
  /** SIGTERM, then waits for it to exit (nothing if it already has). */
  stop(): Promise<void>;
}

/**
 * Starts `hookgate dev --port 0 …args` with `env` and waits for its banner (and `ready`, if given);
 * fails at once, with what it printed, if it exits first.
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
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let url = '';
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`hookgate dev exited with ${child.exitCode}:\n${output}`);
      url = SERVING.exec(output)?.[1] ?? '';
      return url !== '' && (options.ready?.(output) ?? true);
    },
    'the dev banner',
    { timeoutMs: options.timeoutMs ?? 60_000 },
  );
  return {
    child,
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

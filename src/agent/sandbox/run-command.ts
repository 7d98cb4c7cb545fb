import { spawn } from 'node:child_process';
import { terminalEnvironment } from './terminal-environment.ts';

/** What `runCommand` reports: combined output and exit code (124 on timeout, like `timeout(1)`). */
export interface CommandRun {
  output: string;
  exitCode: number;
  timedOut: boolean;
}

/**
 * Runs `command` with `/bin/sh -c` in `cwd` with `env` (default: the terminal environment,
 * terminal-environment.ts), stdout and stderr combined, in its own process group so a
 * timeout kills the whole tree.
 *
 * @example
 * const run = await runCommand('echo hi', '/tmp', 10); // { output: 'hi\n', exitCode: 0, timedOut: false }
 */
export function runCommand(
  command: string,
  cwd: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = terminalEnvironment(),
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
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
    }, timeoutSeconds * 1000);
    signal?.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      const output = Buffer.concat(chunks).toString('utf8');
      resolve({ output, exitCode: timedOut ? 124 : (code ?? (sig ? 128 + 9 : 1)), timedOut });
    });
  });
}

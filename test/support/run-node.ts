import { spawn } from 'node:child_process';

/** What one child process printed, and how it ended (`code` null: ended by a signal). */
export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs this Node (`process.execPath`) with `args` to the end, stdin closed, collecting its
 * output: for what must happen in a process of its own (a CLI's exit status, listeners on
 * `process`, a built function's start).
 *
 * @example
 * const { code, stdout } = await runNode(['--input-type=module', '-e', 'console.log(1)'], { cwd: dir, env });
 */
export function runNode(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    // 'close', not 'exit': the output pipes are drained by then.
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalAws, RunningEmulators, StartEmulatorsOptions } from '../../src/local/emulators.ts';
import { DevStartError } from '../../src/local/dev-start-error.ts';

/**
 * Like `startEmulators`, but in a child Node process, so the emulators get a core of their
 * own instead of sharing the event loop with the code under test (benchmarks; a dev
 * server on a multi-core machine); `pid` is the child's. Dies with its parent: it stops when its stdin closes.
 *
 * @example
 * const aws = await startEmulatorsProcess();
 * // … clients with aws.sqsEndpoint etc.
 * await aws.stop();
 */
export async function startEmulatorsProcess(options: StartEmulatorsOptions = {}): Promise<RunningEmulators & { pid: number }> {
  const entry = fileURLToPath(new URL('./emulators-main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new DevStartError(`emulator process exited with ${code} before it was ready`)));
    child.once('error', reject);
  });
  const endpoints = JSON.parse(first) as LocalAws;
  return {
    ...endpoints,
    /** The child's process id (benchmarks read its CPU time). */
    pid: child.pid!,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

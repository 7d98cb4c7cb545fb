import { runCli } from '../../src/cli/main.ts';

/** What one `hookgate …` run printed, and its exit status. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Variables set (a string) or removed (undefined) for the run, restored after it. */
  env?: Record<string, string | undefined>;
  /** Working directory for the run, restored after it. */
  cwd?: string;
}

/** Thrown in place of exiting when a command calls `process.exit`: the run ends with that status. */
class CliExit {
  constructor(readonly code: number) {}
}

// Output, the environment, the cwd and process.exitCode are the process's own: one run at a time.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the `hookgate` command line in this process (src/cli/main.ts, the same commander
 * program `bin/hookgate.js` runs, without a tsx start per call), capturing stdout, stderr and
 * the exit status; a `process.exit` inside a command ends the run instead of the test worker.
 * Runs are serialised. For what needs a real process (the bin itself, a closed pipe, a TTY,
 * a first-time SDK notice), spawn `bin/hookgate.js`.
 *
 * @example
 * const { code, stdout } = await runCliInProcess(['dlq', 'list'], { env: { HOOKGATE_HOME: home } });
 */
export function runCliInProcess(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runNow(args: readonly string[], { env = {}, cwd }: CliRunOptions): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write, exit: process.exit, cwd: process.cwd() };
  // HOOKGATE_HOME too: `hookgate hooks …` exports its home to the hooks it runs, as dev does.
  const savedEnv = Object.fromEntries([...Object.keys(env), 'HOOKGATE_HOME'].map((name) => [name, process.env[name]]));
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  process.exit = ((code?: number | string | null) => {
    throw new CliExit(Number(code ?? process.exitCode ?? 0));
  }) as typeof process.exit;
  setEnv(env);
  if (cwd) process.chdir(cwd);
  process.exitCode = undefined;
  try {
    const code = await runCli(args).catch((error: unknown) => {
      if (error instanceof CliExit) return error.code;
      throw error;
    });
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    process.exit = saved.exit;
    setEnv(savedEnv);
    if (cwd) process.chdir(saved.cwd);
    process.exitCode = undefined;
  }
}

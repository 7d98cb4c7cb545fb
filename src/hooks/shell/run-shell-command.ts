import { spawnDirect } from './direct-spawn.ts';
import { errorRecord, type ShellRunRecord } from './run-record.ts';
import { CommandNotFoundError, EmptyCommandError, ShellHookSpawnError } from './shell-errors.ts';
import { shellDriverPool } from './shell-driver-pool.ts';
import { findPlainExecutable } from './resolve-program.ts';
import { currentDirectory } from './shell-payload.ts';
import { expandLeadingTilde, splitShellWords } from './shell-words.ts';

export interface RunShellCommandOptions {
  /**
   * `fast` (default): the `/bin/sh` driver pool when it can take the run (what the gateway and
   * the Lambda functions use), else Node's spawn.
   * `exact`: always Node's spawn (the CLI uses it).
   */
  path?: 'fast' | 'exact';
  /**
   * The hook's whole environment (its `PATH` is also where a bare program name is looked
   * up). Default: `process.env` as it is when the hook fires.
   */
  env?: Readonly<NodeJS.ProcessEnv>;
}

/**
 * Runs one shell-hook command (hook-semantics §3.5 steps 2–6): leading-`~` expansion, POSIX
 * word splitting, no shell, the given env (default: inherited) and inherited cwd, `input` on
 * stdin, SIGKILL of the whole process group after `timeoutSeconds`. A signal death reports
 * minus the signal number on every path. Never throws: failures are the record's `error`.
 *
 * @example
 * const record = await runShellCommand('~/.hermes/agent-hooks/guard.sh', payload, 60);
 * if (record.error === null && !record.timed_out) console.log(record.returncode, record.stdout);
 */
export async function runShellCommand(
  command: string,
  input: string,
  timeoutSeconds: number,
  options: RunShellCommandOptions = {},
): Promise<ShellRunRecord> {
  const start = performance.now();
  const env = options.env ?? process.env;
  let argv: string[];
  try {
    argv = splitShellWords(expandLeadingTilde(command));
    if (argv.length === 0) throw new EmptyCommandError();
    // execvp('') is ENOENT; Node refuses an empty file name before trying.
    if (argv[0] === '') throw new CommandNotFoundError();
  } catch (error) {
    return errorRecord(error instanceof ShellHookSpawnError ? error.message : String(error), start);
  }
  const cwd = currentDirectory();
  // Only a plain executable takes the driver, so the §3.5 error classes stay Node's exact ones.
  const program = options.path === 'exact' || cwd === '' ? undefined : findPlainExecutable(argv[0]!, env.PATH, cwd);
  if (program !== undefined) {
    const record = await shellDriverPool().run(argv, input, timeoutSeconds, env);
    if (record) return record;
  }
  return spawnDirect(argv, input, timeoutSeconds, env);
}

/**
 * Starts a driver ahead of the first hook (called once hooks are registered), for hooks that
 * will run with `env`.
 */
export function warmShellRunner(env: Readonly<NodeJS.ProcessEnv> = process.env): void {
  shellDriverPool().warm(env);
}

/**
 * Stops the idle spawner processes (an engine's `close()` calls it). Optional: idle drivers
 * never keep the process alive and exit with it.
 *
 * @example
 * await engine.close(); // → closeShellHookRunners()
 */
export function closeShellHookRunners(): void {
  shellDriverPool().close();
}

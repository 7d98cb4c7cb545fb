import { spawnDirect } from './direct-spawn.ts';
import { errorRecord, type ShellRunRecord } from './run-record.ts';
import { CommandNotFoundError, EmptyCommandError, ShellHookSpawnError } from './shell-errors.ts';
import { shellDriverPool } from './shell-driver-pool.ts';
import { findPlainExecutable } from './resolve-program.ts';
import { currentDirectory } from './shell-payload.ts';
import { expandLeadingTilde, splitShellWords } from './shell-words.ts';

export interface RunShellCommandOptions {
  /**
   * `fast` (default): the `/bin/sh` driver pool when it can take the run, else Node's spawn.
   * `exact`: always Node's spawn (exact signal statuses; the CLI uses it).
   */
  path?: 'fast' | 'exact';
}

/**
 * Runs one shell-hook command (hook-semantics §3.5 steps 2–6): leading-`~` expansion, POSIX
 * word splitting, no shell, inherited env and cwd, `input` on stdin, SIGKILL of the whole
 * process group after `timeoutSeconds`. Never throws: failures are the record's `error`.
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
  if (options.path !== 'exact' && cwd !== '' && findPlainExecutable(argv[0]!, process.env.PATH, cwd) !== undefined) {
    const record = await shellDriverPool().run(argv, input, timeoutSeconds);
    if (record) return record;
  }
  return spawnDirect(argv, input, timeoutSeconds);
}

/** Starts the fast spawner ahead of the first hook (called once hooks are registered). */
export function warmShellRunner(): void {
  shellDriverPool().warm();
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

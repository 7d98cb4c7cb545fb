import { spawnDirect } from './direct-spawn.ts';
import { hookEnvironment, type HookEnvironment } from './hook-environment.ts';
import { errorRecord, type ShellRunRecord } from './run-record.ts';
import { CommandNotFoundError, EmptyCommandError } from './shell-errors.ts';
import { shellDriverPool, type ShellDriverPool } from './shell-driver-pool.ts';
import { findPlainExecutable } from './resolve-program.ts';
import { currentDirectory } from './current-directory.ts';
import { expandLeadingTilde, splitShellWords } from './shell-words.ts';
import { errorText } from '../../../errors/error-text.ts';

export interface RunShellCommandOptions {
  /**
   * `fast` (default): the `/bin/sh` driver pool when it can take the run (what the gateway and
   * the Lambda functions use), else Node's spawn.
   * `exact`: always Node's spawn (the CLI uses it).
   */
  path?: 'fast' | 'exact';
  /** The hook's environment (default: the inherited one minus every secret, no passthrough). */
  environment?: HookEnvironment;
  /** The whole environment instead of `environment`'s (its `PATH` is also where a bare program name is looked up). */
  env?: Readonly<NodeJS.ProcessEnv>;
  /**
   * Variables set for this run on top of the hook's environment (`payload: claude` sets
   * CLAUDE_PROJECT_DIR).
   */
  extraEnv?: Readonly<Record<string, string>>;
  /** The driver pool of the fast path (default: the process-wide one); the bench tries another shell's. */
  pool?: ShellDriverPool;
}

/**
 * Runs one shell-hook command (hook-semantics §3.5 steps 2–6): leading-`~` expansion, POSIX
 * word splitting, no shell, the hook environment (the inherited one minus the secrets, see
 * hook-environment.ts) and inherited cwd, `input` on stdin, SIGKILL of the whole process group
 * after `timeoutSeconds`. A signal death reports minus the signal number on every path. Never
 * throws: failures are the record's `error`.
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
    return errorRecord(errorText(error), start);
  }
  const variables = options.env ?? (options.environment ?? hookEnvironment()).variables();
  const env = options.extraEnv ? { ...variables, ...options.extraEnv } : variables;
  const cwd = currentDirectory();
  // Only a plain executable takes the driver, so the §3.5 error classes stay Node's exact ones.
  const program = options.path === 'exact' || cwd === '' ? undefined : findPlainExecutable(argv[0]!, env.PATH, cwd);
  if (program !== undefined) {
    const record = await (options.pool ?? shellDriverPool()).run(argv, input, timeoutSeconds, env);
    if (record) return record;
  }
  return spawnDirect(argv, input, timeoutSeconds, env);
}

/**
 * Starts a driver ahead of the first hook (called once hooks are registered), for hooks that
 * will run with `environment`.
 */
export function warmShellRunner(environment: HookEnvironment = hookEnvironment()): void {
  shellDriverPool().warm(environment.variables());
}

/**
 * Stops the idle spawner processes of this process's shell runner pool. Optional: idle drivers
 * never keep the process alive and exit with it. An engine's `close()` does not call it, since
 * the pool is shared by every engine in the process; a host that is done with shell hooks may.
 *
 * @example
 * import { closeShellHookRunners } from 'hookgate';
 * await engine.close();
 * closeShellHookRunners();
 */
export function closeShellHookRunners(): void {
  shellDriverPool().close();
}

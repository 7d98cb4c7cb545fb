import { spawnDirect } from './direct-spawn.ts';
import { hookEnvironment, type HookEnvironment } from './hook-environment.ts';
import { errorRecord, type ShellRunRecord } from './run-record.ts';
import { CommandNotFoundError, EmptyCommandError, ShellHookSpawnError } from './shell-errors.ts';
import { hookSpawnAddonAvailable, runWithHookSpawnAddon } from './hook-spawn-addon.ts';
import { shellDriverPool } from './shell-driver-pool.ts';
import { findPlainExecutable } from './resolve-program.ts';
import { currentDirectory } from './shell-payload.ts';
import { expandLeadingTilde, splitShellWords } from './shell-words.ts';

export interface RunShellCommandOptions {
  /**
   * `fast` (default): the native spawner where it is built, else the `/bin/sh` driver pool
   * when it can take the run, else Node's spawn.
   * `driver`: as `fast` without the native spawner (tests and benchmarks of the fallback).
   * `exact`: always Node's spawn (the CLI uses it).
   */
  path?: 'fast' | 'driver' | 'exact';
  /** The hook's environment (default: the inherited one minus every secret, no passthrough). */
  environment?: HookEnvironment;
  /**
   * Variables set for this run on top of the hook's environment (`payload: claude` sets
   * CLAUDE_PROJECT_DIR). Such a run takes Node's spawn.
   */
  extraEnv?: Readonly<Record<string, string>>;
}

/**
 * Runs one shell-hook command (hook-semantics §3.5 steps 2–6): leading-`~` expansion, POSIX
 * word splitting, no shell, inherited env (minus the secrets, see hook-environment.ts) and cwd, `input` on stdin, SIGKILL of the whole
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
  const environment = options.environment ?? hookEnvironment();
  const cwd = currentDirectory();
  // Only a plain executable takes a fast path, so the §3.5 error classes stay Node's exact ones.
  const program = options.path === 'exact' || options.extraEnv !== undefined || cwd === '' ? undefined : findPlainExecutable(argv[0]!, process.env.PATH, cwd);
  if (program !== undefined) {
    const native = options.path === 'driver' ? undefined : runWithHookSpawnAddon(program, argv, input, timeoutSeconds, environment.withheld);
    if (native) return native;
    const record = await shellDriverPool().run(argv, input, timeoutSeconds, environment);
    if (record) return record;
  }
  return spawnDirect(argv, input, timeoutSeconds, { ...environment.variables(), ...options.extraEnv });
}

/** Starts a driver ahead of the first hook where the native spawner is not available (called once hooks are registered). */
export function warmShellRunner(environment?: HookEnvironment): void {
  if (!hookSpawnAddonAvailable()) shellDriverPool().warm(environment);
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

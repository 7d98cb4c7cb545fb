import { HookgateError } from '../../../errors/hookgate-error.ts';

/**
 * One error class per way a shell hook can fail to run (hook-semantics §3.5 step 4). The
 * `message` of each is exactly the run record's `error` string.
 */
export abstract class ShellHookSpawnError extends HookgateError {}

/** The program does not exist (ENOENT). */
export class CommandNotFoundError extends ShellHookSpawnError {
  override readonly name = 'CommandNotFoundError';
  constructor() {
    super('command not found');
  }
}

/** The file exists but cannot be executed: no execute bit, or a directory (EACCES/EPERM). */
export class CommandNotExecutableError extends ShellHookSpawnError {
  override readonly name = 'CommandNotExecutableError';
  constructor() {
    super('command not executable');
  }
}

/** The command splits into no words. */
export class EmptyCommandError extends ShellHookSpawnError {
  override readonly name = 'EmptyCommandError';
  constructor() {
    super('empty command');
  }
}

/** The command line cannot be split into words (unterminated quote, trailing backslash). */
export class UnparseableCommandError extends ShellHookSpawnError {
  override readonly name = 'UnparseableCommandError';
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`cannot parse command ${JSON.stringify(command)}: ${reason}`);
  }
}

/** The payload could not be rendered as wire JSON (a cycle, a throwing toString). */
export class PayloadSerialisationError extends ShellHookSpawnError {
  override readonly name = 'PayloadSerialisationError';
  constructor(reason: string) {
    super(`payload could not be serialised: ${reason}`);
  }
}

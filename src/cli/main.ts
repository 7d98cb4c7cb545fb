import { Command, CommanderError } from 'commander';
import { extractGlobalFlags, type GlobalFlags } from './global-flags.ts';
import { installHooksCommand } from './commands/hooks.ts';
import { installDevCommand } from './commands/dev.ts';
import { installDlqCommand } from './commands/dlq.ts';
import { installTraceCommand } from './commands/trace.ts';

/** Each sub-command file exports one of these; main only assembles them. */
export type CommandInstaller = (program: Command, flags: GlobalFlags) => void;

const installers: CommandInstaller[] = [
  // Sub-commands add themselves here, one line each.
  installHooksCommand,
  installDevCommand,
  installDlqCommand,
  installTraceCommand,
];

/**
 * Runs the `hookgate` command line. Resolves with the exit status instead of exiting, so
 * tests can run it in-process too.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const { flags, rest } = extractGlobalFlags(argv);
  const program = new Command('hookgate')
    .description('Hermes-compatible agent hooks, as a serverless event pipeline')
    .option('--accept-hooks', 'approve every configured shell hook without prompting (any position)')
    .exitOverride()
    .showHelpAfterError();
  for (const install of installers) install(program, flags);
  try {
    await program.parseAsync(rest, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
}

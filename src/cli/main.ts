import { Command, CommanderError } from 'commander';
import { extractGlobalFlags, type GlobalFlags } from './global-flags.ts';
import { exitQuietlyOnClosedPipe } from './quiet-closed-pipe.ts';
import { quietSdkNodeNotice } from './sdk-node-notice.ts';

/** Each sub-command file exports one of these; main only assembles them. */
export type CommandInstaller = (program: Command, flags: GlobalFlags) => void;

/**
 * Sub-commands, imported only when named: `hookgate hooks …` should not pay for loading the
 * dev runtime, the AWS SDK and the agent (seconds through tsx). Help loads them all.
 */
const COMMANDS: Record<string, () => Promise<CommandInstaller>> = {
  hooks: async () => (await import('./commands/hooks.ts')).installHooksCommand,
  dev: async () => (await import('./commands/dev.ts')).installDevCommand,
  dlq: async () => (await import('./commands/dlq.ts')).installDlqCommand,
  trace: async () => (await import('./commands/trace.ts')).installTraceCommand,
  replay: async () => (await import('./commands/replay.ts')).installReplayCommand,
  chat: async () => (await import('./commands/chat.ts')).installChatCommand,
  init: async () => (await import('./commands/init.ts')).installInitCommand,
};

async function installersFor(args: readonly string[]): Promise<CommandInstaller[]> {
  const named = args.find((arg) => !arg.startsWith('-'));
  const load = named !== undefined ? COMMANDS[named] : undefined;
  return Promise.all(load ? [load()] : Object.values(COMMANDS).map((l) => l()));
}

/**
 * Runs the `hookgate` command line. Resolves with the exit status instead of exiting, so
 * tests can run it in-process too.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  return runCommandLine(argv);
}

/**
 * What `bin/hookgate.js` runs: {@link runCli} in a process of its own, which also exits
 * quietly when its output pipe is closed (`hookgate hooks list | head -1`).
 */
export async function runCliProcess(argv: readonly string[]): Promise<number> {
  exitQuietlyOnClosedPipe();
  return runCommandLine(argv);
}

async function runCommandLine(argv: readonly string[]): Promise<number> {
  quietSdkNodeNotice();
  const { flags, rest } = extractGlobalFlags(argv);
  const program = new Command('hookgate')
    .description('Hermes-compatible agent hooks, as a serverless event pipeline')
    .option('--accept-hooks', 'approve every configured shell hook without prompting (any position)')
    .exitOverride()
    .showHelpAfterError();
  for (const install of await installersFor(rest)) install(program, flags);
  try {
    await program.parseAsync(rest, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
}

import type { Command } from 'commander';
import type { CommandInstaller } from '../main.ts';
import { approveHook } from './hooks-approve.ts';
import { loadHooksContext } from './hooks-context.ts';
import { doctorHooks } from './hooks-doctor.ts';
import { importClaudeHooks } from './hooks-import.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { listHooks } from './hooks-list.ts';
import { revokeHook } from './hooks-revoke.ts';
import { testHooks } from './hooks-test.ts';
import { errorText } from '../../errors/error-text.ts';
import { StackLookupError } from '../stack-resources.ts';

const EXIT_CODES = `
Exit status:
  0  success, including informational outcomes (unknown event, no hooks, problems found by doctor)
  1  doctor --strict: doctor counted at least one problem;
     test --expect: the expectation was not met (also: no hook selected, or a hook failed open);
     approve: not confirmed;
     any sub-command: --stack names a stack that cannot be looked up
  2  invalid input: test --expect with an unknown event, a bad --expect value or an unreadable
     --payload-file; approve with an unknown event; import with a settings file that is not
     Claude Code's, or a config.yaml that cannot be parsed
  non-zero (commander's) for usage errors: a missing argument, an unknown sub-command or option`;

/**
 * The usage line of a bare `hookgate hooks`. hook-semantics §4 quotes `list|test|revoke|doctor`,
 * which scripts and tests look for verbatim (§0.5), so hookgate's own sub-commands come after it.
 */
const USAGE = 'usage: hookgate hooks {list|test|revoke|doctor|approve|import} ...\n';

/** Sets the exit status the way `runCli` reads it. */
function exitWith(code: number): void {
  if (code !== 0 || process.exitCode === undefined) process.exitCode = code;
}

async function withContext(command: Command, fn: (ctx: Awaited<ReturnType<typeof loadHooksContext>>) => Promise<number>) {
  let ctx;
  try {
    ctx = await loadHooksContext(command);
  } catch (error) {
    // `--stack NAME` that CloudFormation cannot describe (unknown stack, no credentials, no
    // network) is the operator's input, not a crash: one line and exit 1, as `dlq` and `trace` do.
    if (!(error instanceof StackLookupError)) throw error;
    process.stderr.write(`hookgate hooks: ${errorText(error)}\n`);
    exitWith(1);
    return;
  }
  exitWith(await fn(ctx));
}

/**
 * `hookgate hooks list|test|approve|revoke|doctor` (hook-semantics §4, §5.6).
 *
 * @example
 * const installers: CommandInstaller[] = [installHooksCommand];
 */
export const installHooksCommand: CommandInstaller = (program) => {
  const hooks = program
    .command('hooks')
    .description('inspect, test, approve and revoke the shell hooks of a hooks home')
    .option('--home <dir>', 'hooks home (default: $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes)')
    .option('--table <name>', "a deployed stack's DynamoDB allowlist table instead of the local file")
    .option('--stack <name>', 'a deployed stack (CloudFormation) whose DynamoDB allowlist to use')
    .argument('[subcommand]')
    .addHelpText('after', EXIT_CODES)
    .action((subcommand: string | undefined) => {
      if (subcommand !== undefined) {
        process.stderr.write(`error: unknown hooks sub-command '${subcommand}'\n`);
        process.stdout.write(USAGE);
        exitWith(2);
        return;
      }
      process.stdout.write(USAGE);
      process.stdout.write('Run `hookgate hooks --help` for details.\n');
    });

  hooks
    .command('list')
    .alias('ls')
    .description('show every configured shell hook, its consent status and drift')
    .action((_opts, command: Command) => withContext(command, listHooks));

  hooks
    .command('test')
    .description('fire the hooks of one event on a synthetic payload (un-approved ones too)')
    .argument(
      '<event>',
      'a hook event name (pre_tool_call: plugin and shell hooks) or a gateway event (command:model: gateway hooks)',
    )
    .option('--for-tool <tool>', 'set tool_name and keep only tool hooks whose matcher matches it')
    .option('--payload-file <file>', 'a JSON object merged over the synthetic payload')
    .option('--expect <outcome>', 'block | allow | context: set the exit status from the outcome')
    .addHelpText('after', EXIT_CODES)
    .action((event: string, opts: { forTool?: string; payloadFile?: string; expect?: string }, command: Command) =>
      withContext(command, (ctx) => testHooks(ctx, event, opts)),
    );

  hooks
    .command('approve')
    .description('record consent for one (event, command) pair — for runs without a TTY')
    .argument('<event>')
    .argument('<command>')
    .option('--yes', 'approve without asking on a TTY (without a TTY nothing is asked)')
    .action((event: string, shellCommand: string, opts: { yes?: boolean }, command: Command) =>
      withContext(command, (ctx) => approveHook(ctx, event, shellCommand, opts.yes === true)),
    );

  hooks
    .command('revoke')
    .aliases(['remove', 'rm'])
    .description('remove every allowlist entry whose command is exactly <command>')
    .argument('<command>')
    .action((shellCommand: string, _opts, command: Command) => withContext(command, (ctx) => revokeHook(ctx, shellCommand)));

  hooks
    .command('import')
    .description("add a Claude Code settings file's hooks to config.yaml (payload: claude); they still need approval")
    .requiredOption('--from-claude <file>', 'a Claude Code settings file, e.g. .claude/settings.json')
    .option('--dry-run', 'print what would be imported; change nothing')
    .addHelpText(
      'after',
      '\n--home <dir> (an option of `hooks`, accepted here too) picks the hooks home whose config.yaml is written.\nSee docs/reference/claude-code.md for the mapping.',
    )
    .action(async (opts: { fromClaude: string; dryRun?: boolean }, command: Command) => {
      const home = (command.optsWithGlobals() as { home?: string }).home ?? resolveHooksHome();
      exitWith(await importClaudeHooks(opts.fromClaude, { home, dryRun: opts.dryRun === true }));
    });

  hooks
    .command('doctor')
    .description('check every configured shell hook: executable, allowlisted, unchanged, valid JSON')
    .option('--strict', 'exit 1 when a problem was found (for CI); plain doctor always exits 0')
    .addHelpText('after', EXIT_CODES)
    .action((opts: { strict?: boolean }, command: Command) =>
      withContext(command, (ctx) => doctorHooks(ctx, { strict: opts.strict === true })),
    );
};

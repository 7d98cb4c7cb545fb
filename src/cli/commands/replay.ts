import { formatReplay, loadReplayEngine, replayTurn } from '../../agent/trace/replay-turn.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import type { CommandInstaller } from '../main.ts';
import { resolveTraceTarget } from '../trace-target.ts';
import { errorText } from '../../errors/error-text.ts';

interface ReplayOptions {
  table?: string;
  stack?: string;
  home?: string;
  json?: boolean;
}

/**
 * `hookgate replay <turn_id> [--home DIR] [--json]`: re-runs a recorded turn's decision-hook
 * calls with their recorded kwargs against the hooks home as it is now (no model, no tools),
 * and prints each call's decision then and now. Exit 0: every call decides as before; 1: at
 * least one differs; 2: turn unknown, or a call not replayable (its kwargs were cut).
 *
 * @example
 * const installers: CommandInstaller[] = [installReplayCommand];
 */
export const installReplayCommand: CommandInstaller = (program) => {
  program
    .command('replay')
    .description("re-run a recorded turn's hook calls against the hooks home as it is now; exit 1 when a decision differs")
    .argument('<turn_id>', 'the turn id (turn_…), as in the console, `hookgate trace --list` and hook kwargs')
    .option(
      '--home <dir>',
      'the hooks home to replay against, whose running hookgate dev has the traces (default: the running dev)',
    )
    .option('--table <name>', "read the traces from a deployed stack's DynamoDB table (standard AWS credentials)")
    .option('--stack <name>', 'read the traces from a deployed stack (CloudFormation)')
    .option('--json', 'print JSON')
    .action(async (turnId: string, options: ReplayOptions) => {
      let target;
      try {
        target = await resolveTraceTarget(options);
      } catch (error) {
        process.stderr.write(`hookgate replay: ${errorText(error)}\n`);
        process.exitCode = 2;
        return;
      }
      try {
        const records = await target.store.list(turnId);
        if (records.length === 0) {
          process.stderr.write(`hookgate replay: no hook calls recorded for ${turnId} (${target.via})\n`);
          process.exitCode = 2;
          return;
        }
        const home = options.home ?? target.devHome ?? resolveHooksHome();
        const engine = await loadReplayEngine(home);
        const replay = await replayTurn(turnId, records, engine, target.transcripts).finally(() => engine.close());
        process.stdout.write(options.json ? `${JSON.stringify(replay, null, 2)}\n` : formatReplay(replay));
        process.exitCode = replay.exit_code;
      } catch (error) {
        process.stderr.write(`hookgate replay: ${target.via}: ${errorText(error)}\n`);
        process.exitCode = 2;
      } finally {
        target.client.destroy();
      }
    });
};

import { InvalidArgumentError } from 'commander';
import { escapeControlCharacters } from '../../logging/escape-control-characters.ts';
import type { TraceRecord } from '../../store/trace-store.ts';
import type { TurnFilter, TurnSummary } from '../../store/turn-summary.ts';
import type { CommandInstaller } from '../main.ts';
import { resolveTraceTarget } from '../trace-target.ts';
import { errorText } from '../../errors/error-text.ts';

interface TraceOptions {
  table?: string;
  stack?: string;
  home?: string;
  json?: boolean;
  list?: boolean;
  chat?: string;
  user?: string;
  hook?: string;
  decision?: string;
  error?: boolean;
  text?: string;
  limit?: number;
  offset?: number;
}

/**
 * One line per turn: time, duration, platform:chat, user, badges, turn id, first line of the
 * message. What a chat user chose (chat id, user id, message) is escaped: a newline or an ANSI
 * sequence in it cannot forge a row or drive the operator's terminal.
 */
export function formatTurnList(turns: readonly TurnSummary[]): string {
  const rows = [
    ['TIME', 'MS', 'CHAT', 'USER', 'BADGES', 'TURN', 'MESSAGE'],
    ...turns.map((t) => [
      t.at.replace('T', ' ').slice(0, 19),
      String(t.duration_ms),
      t.chat_id ? escapeControlCharacters(`${t.platform}:${t.chat_id}`) : '-',
      escapeControlCharacters(t.user_id || '-'),
      [t.blocked ? 'blocked' : '', t.error ? 'error' : '', t.approval ? 'approval' : ''].filter(Boolean).join(',') || '-',
      t.turn_id,
      escapeControlCharacters(t.first_line),
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows
    .map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  '))
    .join('\n');
}

/**
 * Fixed-width columns: hook, source, callback, decision, duration; then the text of every
 * reply the platform never took, in full.
 */
export function formatTrace(records: readonly TraceRecord[]): string {
  const rows = [
    ['HOOK', 'SOURCE', 'CALLBACK', 'DECISION', 'DURATION'],
    ...records.map((r) => [
      r.hook,
      r.source,
      r.plugin ? `${r.plugin}:${r.callback}` : r.callback,
      r.decision.replace(/\s+/g, ' ').slice(0, 80),
      `${r.duration_ms} ms`,
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const table = rows
    .map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  '))
    .join('\n');
  const undelivered = records
    .filter((r) => r.text !== undefined)
    .map((r) => `\nundelivered reply to ${r.callback} (${r.at}):\n${r.text!.replace(/^/gm, '  ')}`);
  return [table, ...undelivered].join('\n');
}

/**
 * `hookgate trace <turn_id> [--table NAME | --stack NAME] [--home DIR] [--json]`: every hook call of one
 * turn — hook, source (plugin / shell / gateway hook), callback, decision, duration.
 * `hookgate trace --list [--chat ID] [--user ID] [--hook NAME] [--decision D] [--error] [--text T]
 * [--limit N] [--offset N]`: the recent turns, newest first, with the console's filters. Without
 * `--table`/`--stack`/`--home` the running `hookgate dev` is found (the default home's, or the
 * only one running).
 *
 * @example
 * const installers: CommandInstaller[] = [installTraceCommand];
 */
/** A commander parser for a whole number at least `min` (a usage error otherwise, not a silent default). */
function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`must be a whole number, at least ${min}`);
    return Number(value);
  };
}

export const installTraceCommand: CommandInstaller = (program) => {
  program
    .command('trace')
    .description("print one turn's hook calls (hook, source, callback, decision, duration), or with --list the recent turns")
    .argument('[turn_id]', 'the turn id (turn_…), as in hook kwargs, logs and `hookgate trace --list`')
    .option('--list', 'list the recent turns (newest first) instead')
    .option('--chat <id>', '--list: only this chat (`<chat id>` or `<platform>:<chat id>`)')
    .option('--user <id>', '--list: only this user')
    .option('--hook <name>', '--list: only turns where this hook, callback or plugin ran')
    .option('--decision <d>', '--list: only turns with this decision (block, allow, error, context, replaced, …)')
    .option('--error', '--list: only turns with an error')
    .option('--text <text>', '--list: only turns whose message, chat, user or ids contain this text')
    .option('--limit <n>', '--list: at most this many turns', wholeNumber(1), 50)
    .option('--offset <n>', '--list: skip this many matching turns first (paging)', wholeNumber(0), 0)
    .option('--table <name>', "a deployed stack's DynamoDB table (standard AWS credentials)")
    .option('--stack <name>', 'a deployed stack (CloudFormation) whose table to use')
    .option('--home <dir>', "hooks home of the running hookgate dev (default: the default home's, or the only one running)")
    .option('--json', 'print JSON')
    .action(async (turnId: string | undefined, options: TraceOptions) => {
      if (!options.list && turnId === undefined) {
        process.stderr.write('hookgate trace: name a turn id, or pass --list\n');
        process.exitCode = 1;
        return;
      }
      let target;
      try {
        target = await resolveTraceTarget(options);
      } catch (error) {
        process.stderr.write(`hookgate trace: ${errorText(error)}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        if (options.list) {
          const filter: TurnFilter = {
            ...(options.chat ? { chat: options.chat } : {}),
            ...(options.user ? { user: options.user } : {}),
            ...(options.hook ? { hook: options.hook } : {}),
            ...(options.decision ? { decision: options.decision } : {}),
            ...(options.error ? { error: true } : {}),
            ...(options.text ? { text: options.text } : {}),
          };
          const page = { limit: options.limit ?? 50, offset: options.offset ?? 0 };
          const { turns, total } = await target.store.listTurns(filter, page);
          if (options.json) process.stdout.write(`${JSON.stringify({ turns, total }, null, 2)}\n`);
          else if (turns.length === 0) process.stdout.write(`no turns match (${target.via})\n`);
          else process.stdout.write(`${formatTurnList(turns)}\n${turns.length} of ${total} matching turn(s) (${target.via})\n`);
          return;
        }
        const records = await target.store.list(turnId!);
        if (records.length === 0) {
          process.stderr.write(`hookgate trace: no hook calls recorded for ${turnId} (${target.via})\n`);
          process.exitCode = 1;
        } else if (options.json) {
          process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
        } else {
          process.stdout.write(`${formatTrace(records)}\n${records.length} hook call(s) in ${turnId}\n`);
        }
      } catch (error) {
        process.stderr.write(`hookgate trace: ${target.via}: ${errorText(error)}\n`);
        process.exitCode = 1;
      } finally {
        target.client.destroy();
      }
    });
};

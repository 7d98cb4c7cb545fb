import { Option, type Command } from 'commander';
import type { CommandInstaller } from '../main.ts';
import { DeadLetterQueue, type DeadLetter } from '../../pipeline/dead-letter-queue.ts';
import { DLQ_NAMES, resolveDlqTarget, type DlqTargetOptions } from '../dlq-target.ts';
import { errorText } from '../../errors/error-text.ts';

interface DlqOptions extends DlqTargetOptions {
  json?: boolean;
  id?: string;
}

const line = (l: DeadLetter) =>
  `${l.id ?? '-'}\t${l.type ?? '-'}\treceives=${l.receiveCount}\tsent=${l.sentAt ?? '-'}\tmessage=${l.messageId}\n`;

/** Runs one dlq action; errors become one line on stderr and exit status 1, never a stack trace. */
async function run(command: Command, action: (dlq: DeadLetterQueue, opts: DlqOptions) => Promise<void>): Promise<void> {
  const opts = command.optsWithGlobals() as DlqOptions;
  let target;
  try {
    target = await resolveDlqTarget(opts);
  } catch (error) {
    process.stderr.write(`hookgate dlq: ${errorText(error)}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    await action(
      new DeadLetterQueue({
        sqs: target.sqs,
        dlqUrl: target.dlqUrl,
        ...(target.sourceQueueUrl ? { sourceQueueUrl: target.sourceQueueUrl } : {}),
      }),
      opts,
    );
  } catch (error) {
    process.stderr.write(`hookgate dlq: ${target.dlqUrl} (${target.via}): ${errorText(error)}\n`);
    process.exitCode = 1;
  } finally {
    target.sqs.destroy();
  }
}

/**
 * `hookgate dlq list | replay [--id ID] | purge`: the dead-letter queue of observer events
 * (or `--queue turns`, `--queue timers`), of the running `hookgate dev` by default or of a deployed stack.
 *
 * @example
 * const installers: CommandInstaller[] = [installDlqCommand];
 */
export const installDlqCommand: CommandInstaller = (program) => {
  const dlq = program
    .command('dlq')
    .description('list, replay or purge the dead-letter queue')
    .addOption(new Option('--queue <which>', 'which DLQ (timers: approval timeouts)').choices(DLQ_NAMES).default('events'))
    .option('--queue-url <url>', 'the DLQ URL (deployed or local)')
    .option('--target-url <url>', 'where replay sends messages (default: the DLQ source queue)')
    .option('--stack <name>', 'a deployed stack (CloudFormation) whose queues to use')
    .option('--home <dir>', 'hooks home of the running hookgate dev (default: $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes)')
    .option('--json', 'print JSON');

  dlq
    .command('list')
    .description('show the messages waiting in the DLQ')
    .action((_opts, command: Command) =>
      run(command, async (queue, opts) => {
        const letters = await queue.list();
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(letters, null, 2)}\n`);
          return;
        }
        for (const l of letters) process.stdout.write(line(l));
        process.stdout.write(`${letters.length} message(s) in the DLQ\n`);
      }),
    );

  dlq
    .command('replay')
    .description('send DLQ messages back to their source queue (all, or one with --id)')
    .option('--id <id>', 'envelope id (or SQS message id) of the one message to replay')
    .action((_opts, command: Command) =>
      run(command, async (queue, opts) => {
        const replayed = await queue.replay(opts.id !== undefined ? { id: opts.id } : {});
        if (opts.id !== undefined && replayed.length === 0) {
          process.stderr.write(`hookgate dlq: no message with id ${opts.id} in the DLQ\n`);
          process.exitCode = 1;
        }
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(replayed, null, 2)}\n`);
          return;
        }
        for (const l of replayed) process.stdout.write(line(l));
        process.stdout.write(`replayed ${replayed.length} message(s)\n`);
      }),
    );

  dlq
    .command('purge')
    .description('delete every message in the DLQ')
    .action((_opts, command: Command) =>
      run(command, async (queue, opts) => {
        const count = await queue.purge();
        process.stdout.write(opts.json ? `${JSON.stringify({ purged: count })}\n` : `purged ${count} message(s)\n`);
      }),
    );
};

import type { HookLogger } from '../../hook-logger.ts';
import type { AllowlistEntry, AllowlistStore } from './allowlist-store.ts';
import { formatIsoMicros, nowMicros } from './iso-timestamp.ts';
import { scriptMtime, scriptSha256 } from './script-path.ts';

const YES_WORDS = new Set(['1', 'true', 'yes', 'on']);

/** `HOOKGATE_ACCEPT_HOOKS` / `HERMES_ACCEPT_HOOKS`-style flag: trimmed, lower-cased, 1/true/yes/on. */
export function isOnWord(value: unknown): boolean {
  return typeof value === 'string' && YES_WORDS.has(value.trim().toLowerCase());
}

/** `hooks_auto_accept`, parsed strictly (§3.8): a boolean, or an on-word string; else false. */
export function autoAcceptFromConfig(config: Record<string, unknown>): boolean {
  const value = config.hooks_auto_accept;
  return typeof value === 'boolean' ? value : isOnWord(value);
}

/**
 * Effective accept (§3.8): the CLI flag, or either env variable, or `hooks_auto_accept`.
 *
 * @example
 * effectiveAccept(false, { HERMES_ACCEPT_HOOKS: ' Yes ' }, {}) // true
 */
export function effectiveAccept(flag: boolean, env: NodeJS.ProcessEnv, config: Record<string, unknown>): boolean {
  return flag || isOnWord(env.HOOKGATE_ACCEPT_HOOKS) || isOnWord(env.HERMES_ACCEPT_HOOKS) || autoAcceptFromConfig(config);
}

/** Where the TTY prompt reads and writes; tests pass a pty-backed process instead. */
export interface ConsentIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

const PROCESS_IO: ConsentIO = { input: process.stdin, output: process.stdout };

/**
 * Builds the approval record of (event, command) now: `approved_at`, the script's mtime and
 * its sha256 (§3.9, §5.5).
 */
export function approvalFor(event: string, command: string, env: NodeJS.ProcessEnv = process.env): AllowlistEntry {
  return {
    approved_at: formatIsoMicros(nowMicros()),
    command,
    event,
    script_mtime_at_approval: scriptMtime(command, env),
    script_sha256_at_approval: scriptSha256(command, env),
  };
}

/**
 * The consent procedure for an un-allowlisted (event, command) (§3.8): accept → record and
 * grant; no TTY → not granted, nothing written; else the `[y/N]` prompt. A failure to record
 * still grants for this run.
 *
 * @example
 * if (await obtainConsent({ event, command, accept, allowlist, logger })) register();
 */
export async function obtainConsent(options: {
  event: string;
  command: string;
  accept: boolean;
  allowlist: AllowlistStore;
  logger: HookLogger;
  env?: NodeJS.ProcessEnv;
  io?: ConsentIO;
  /** An http hook (hook-semantics §5.10) is asked about as a URL the hook inputs go to. */
  kind?: 'command' | 'http';
}): Promise<boolean> {
  const { event, command, allowlist, logger } = options;
  const env = options.env ?? process.env;
  if (options.accept) {
    await allowlist.record(approvalFor(event, command, env));
    logger.info(`shell hook auto-approved via --accept-hooks / env / hooks_auto_accept: event=${event} command=${command}`);
    return true;
  }
  const io = options.io ?? PROCESS_IO;
  if (!io.input.isTTY) return false;
  if (!(await askOnTerminal(event, command, io, options.kind))) return false;
  await allowlist.record(approvalFor(event, command, env));
  return true;
}

/** Prints the §3.8 prompt and reads one answer; `y`/`yes` grants. */
export async function askOnTerminal(
  event: string,
  command: string,
  io: ConsentIO,
  kind: 'command' | 'http' = 'command',
): Promise<boolean> {
  io.output.write(
    kind === 'http'
      ? '\n⚠ hookgate is about to register an http hook that will send hook inputs (tool calls, prompts) to a URL.\n\n' +
          `    Event:   ${event}\n    URL:     ${command}\n\n` +
          'Its answers can block and rewrite tool calls. Only approve services you trust.\n'
      : '\n⚠ hookgate is about to register a shell hook that will run a command on your behalf.\n\n' +
          `    Event:   ${event}\n    Command: ${command}\n\n` +
          'Commands run with your full user credentials. Only approve commands you trust.\n',
  );
  // Loaded on the first prompt: only a terminal asks, and the functions' cold starts never do.
  const { createInterface } = await import('node:readline');
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.input, output: io.output, terminal: true });
    let answered = false;
    const done = (granted: boolean, newline: boolean) => {
      if (answered) return;
      answered = true;
      if (newline) io.output.write('\n');
      rl.close();
      resolve(granted);
    };
    rl.on('SIGINT', () => done(false, true));
    rl.on('close', () => done(false, true)); // end of input
    rl.question('Allow this hook to run? [y/N]: ', (answer) => {
      const word = answer.trim().toLowerCase();
      done(word === 'y' || word === 'yes', false);
    });
  });
}

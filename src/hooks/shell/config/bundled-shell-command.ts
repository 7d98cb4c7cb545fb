import { join } from 'node:path';

/**
 * Where a configured shell-hook command's script sits in a deployed hooks home. The command
 * in config.yaml (`examples/agent-hooks/block-rm-rf.sh`, `~/.hermes/agent-hooks/guard.sh`) is
 * written for the operator's machine; in Lambda the script is in the bundled home and the
 * working directory is `/var/task`. Synth records, per configured command, its words and
 * which word is the script, with the script's path inside the bundled home.
 *
 * The configured command stays the hook's identity (its callback name and its allowlist
 * key), so `hookgate hooks approve <event> <command as written> --stack …` approves it.
 */
export interface BundledShellCommand {
  /** The command's words, as split at synth. */
  readonly words: readonly string[];
  /** Index of the word that names the script. */
  readonly scriptWord: number;
  /** The script's path relative to the bundled home, `/`-separated. */
  readonly script: string;
}

const PLAIN_WORD = /^[A-Za-z0-9_\-.,:/@%+=]+$/;

/** Quotes words so that `splitShellWords` gives them back unchanged. */
export function joinShellWords(words: readonly string[]): string {
  return words.map((word) => (word !== '' && PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

/**
 * The commands to spawn for a bundled home at `home`: configured command → the same words
 * with the script word replaced by its absolute path in `home`.
 *
 * @example
 * bundledRunCommands('/var/task/hooks-home', {
 *   'examples/agent-hooks/block-rm-rf.sh': { words: ['examples/agent-hooks/block-rm-rf.sh'], scriptWord: 0, script: 'agent-hooks/block-rm-rf.sh' },
 * }) // Map { 'examples/agent-hooks/block-rm-rf.sh' => '/var/task/hooks-home/agent-hooks/block-rm-rf.sh' }
 */
export function bundledRunCommands(home: string, commands: Readonly<Record<string, BundledShellCommand>>): Map<string, string> {
  const run = new Map<string, string>();
  for (const [command, located] of Object.entries(commands)) {
    const words = [...located.words];
    words[located.scriptWord] = join(home, ...located.script.split('/'));
    run.set(command, joinShellWords(words));
  }
  return run;
}

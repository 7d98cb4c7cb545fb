import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ShellHookEntry } from '../../src/hooks/shell/config/shell-hook-entry.ts';
import type { BundledShellCommand } from '../../src/hooks/shell/config/bundled-shell-command.ts';
import { resolveScriptPath } from '../../src/hooks/shell/consent/script-path.ts';
import { expandLeadingTilde, splitShellWords } from '../../src/hooks/shell/spawn/shell-words.ts';
import { HookgateError } from '../../src/errors/hookgate-error.ts';

/** One file of the deployed hooks home. */
export interface HomeFile {
  /** Where it is read from on the build machine. */
  readonly source: string;
  /** Its path inside the bundled home, `/`-separated. */
  readonly target: string;
  readonly size: number;
}

/** What goes into the deployed hooks home, decided at synth. */
export interface HooksHomePlan {
  readonly files: readonly HomeFile[];
  readonly totalBytes: number;
  /** Per configured shell-hook command, where its script is in the bundle. */
  readonly shellCommands: Record<string, BundledShellCommand>;
}

/** Names never shipped, at any depth: secrets, state, history, dependencies, consent files. */
const NEVER_SHIPPED = new Set(['sessions', 'logs', 'memories', 'node_modules', 'shell-hooks-allowlist.json', 'shell-hooks-allowlist.json.lock']);

/** Dotfiles (`.env`, `.env.local`, `.hookgate/`, `.git/`), state directories, allowlist files. */
export function isNeverShipped(name: string): boolean {
  return name.startsWith('.') || NEVER_SHIPPED.has(name) || /^shell-hooks-allowlist\.json\./.test(name);
}

/** Where scripts referenced from outside the home go in the bundled home. */
const EXTERNAL_SCRIPTS_DIR = 'bundled-scripts';
const SCRIPT_SUFFIX = /\.(sh|bash|zsh|fish|py|pyw|rb|pl|lua|js|mjs|cjs|ts)$/i;

export class HooksHomeFilesError extends HookgateError {
  override readonly name = 'HooksHomeFilesError';
}

/**
 * Decides the deployed hooks home by inclusion: `config.yaml`, `BOOT.md`, the trees
 * `plugins/` and `hooks/`, every script an enabled shell hook's command names, and the files
 * a shell-hook entry lists under `files:` — never dotfiles (`.env*`, `.hookgate/`),
 * `sessions/`, `logs/`, `memories/`, `node_modules/` or allowlist files, wherever they are.
 *
 * A command's script is looked for in the home, then in each of `searchDirs` (the working
 * directory and the repository, where a local run finds a relative command). A script that
 * is missing, or not runnable as configured (a bare `./hook.sh` needs +x, `bash hook.sh` +r),
 * fails with every such command named. A bare program name (`jq`, `my-binary`) is a PATH
 * lookup and is left alone.
 *
 * @example
 * const plan = planHooksHomeFiles('/home/me/.hermes', entries, [process.cwd()]);
 * // plan.files → config.yaml, agent-hooks/guard.sh, …; plan.shellCommands['~/.hermes/agent-hooks/guard.sh'].script === 'agent-hooks/guard.sh'
 */
export function planHooksHomeFiles(
  home: string,
  entries: readonly (ShellHookEntry & { files?: unknown })[],
  searchDirs: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): HooksHomePlan {
  const files = new Map<string, HomeFile>();
  const add = (source: string, target: string) => {
    if (!files.has(target)) files.set(target, { source, target, size: statSync(source).size });
  };
  for (const name of ['config.yaml', 'BOOT.md']) {
    if (isFile(join(home, name))) add(join(home, name), name);
  }
  for (const dir of ['plugins', 'hooks']) walk(join(home, dir), dir, add);

  const problems: string[] = [];
  const shellCommands: Record<string, BundledShellCommand> = {};
  let external = 0;
  /** The target of a referenced file: its place in the home, or a slot for outside files. */
  const place = (source: string): string => {
    const inHome = relative(home, source);
    const parts = inHome.split(sep);
    if (!inHome.startsWith('..') && !isAbsolute(inHome) && !parts.some(isNeverShipped)) return parts.join('/');
    external += 1;
    return `${EXTERNAL_SCRIPTS_DIR}/${external}/${basename(source)}`;
  };
  const locate = (word: string): string | undefined => {
    const expanded = expandLeadingTilde(word, env);
    const candidates = isAbsolute(expanded) ? [expanded] : [home, ...searchDirs].map((dir) => resolve(dir, expanded));
    return candidates.find(isFile);
  };

  for (const entry of entries) {
    // An http or prompt entry has no script to ship: its `command` is a URL or a prompt.
    if (!entry.enabled || (entry.type ?? 'command') !== 'command' || shellCommands[entry.command]) continue;
    let words: string[];
    try {
      words = splitShellWords(entry.command);
    } catch (error) {
      problems.push(`hooks.${entry.event}: ${entry.command}: ${(error as Error).message}`);
      continue;
    }
    const script = resolveScriptPath(entry.command);
    const scriptWord = words.indexOf(script);
    const namesAFile = script.includes('/') || script.startsWith('~') || SCRIPT_SUFFIX.test(script);
    if (scriptWord < 0 || !namesAFile) continue; // a program on PATH
    const source = locate(script);
    if (source === undefined) {
      problems.push(`hooks.${entry.event}: ${entry.command}: script ${script} not found in ${[home, ...searchDirs].join(' or ')}`);
      continue;
    }
    if (isNeverShipped(basename(source))) {
      problems.push(`hooks.${entry.event}: ${entry.command}: ${source} is a dotfile or state file; it is never bundled`);
      continue;
    }
    try {
      accessSync(source, scriptWord === 0 ? constants.X_OK : constants.R_OK);
    } catch {
      problems.push(`hooks.${entry.event}: ${entry.command}: ${source} is not ${scriptWord === 0 ? 'executable (chmod +x)' : 'readable'}`);
      continue;
    }
    const target = place(source);
    add(source, target);
    shellCommands[entry.command] = { words, scriptWord, script: target };
    for (const needed of Array.isArray(entry.files) ? entry.files : []) {
      const file = typeof needed === 'string' ? locate(needed) : undefined;
      if (file === undefined || isNeverShipped(basename(file))) {
        problems.push(`hooks.${entry.event}: ${entry.command}: files: ${String(needed)} not found or never bundled`);
      } else {
        add(file, place(file));
      }
    }
  }
  if (problems.length > 0) {
    throw new HooksHomeFilesError(`hooks home ${home}: shell hooks that would not run in the deployment:\n  ${problems.join('\n  ')}`);
  }
  const list = [...files.values()].sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return { files: list, totalBytes: list.reduce((sum, f) => sum + f.size, 0), shellCommands };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function walk(dir: string, prefix: string, add: (source: string, target: string) => void): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (isNeverShipped(entry.name)) continue;
    const path = join(dir, entry.name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory()) walk(path, `${prefix}/${entry.name}`, add);
    else if (stats?.isFile()) add(path, `${prefix}/${entry.name}`);
  }
}

import { accessSync, constants, lstatSync, readdirSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ShellHookEntry } from '../../src/hooks/shell/config/shell-hook-entry.ts';
import { joinShellWords, type BundledShellCommand } from '../../src/hooks/shell/config/bundled-shell-command.ts';
import { lambdaMissingPrograms } from '../../src/hooks/shell/config/lambda-compatibility.ts';
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
const NEVER_SHIPPED = new Set([
  'sessions',
  'logs',
  'memories',
  'node_modules',
  'shell-hooks-allowlist.json',
  'shell-hooks-allowlist.json.lock',
]);

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
 * One directory that ships because its code is compiled into the bundle: an enabled plugin
 * (`plugins/<dir>`, manifest `plugin.yaml`) or a gateway hook (`hooks/<dir>`, `HOOK.yaml`).
 * Its manifest ships (the cold start validates it), and the files it declares under
 * `files:` (paths relative to the directory); its source modules and anything else do not.
 */
export interface ShippedUnit {
  /** `/`-separated, relative to the home: `plugins/guard`. */
  readonly dir: string;
  readonly manifest: 'plugin.yaml' | 'HOOK.yaml';
  /** The manifest's `files:` value, as parsed (validated here). */
  readonly files?: unknown;
}

export interface HooksHomePlanOptions {
  /** The enabled plugins and gateway hooks (hooks-bundle.ts decides them from discovery). */
  readonly units?: readonly ShippedUnit[];
  /**
   * Shell hooks allowed to ship although the Lambda runtime lacks a program they call
   * (context `allowHooksMissingInLambda`): the script's file name or the command as written.
   */
  readonly allowMissingInLambda?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Decides the deployed hooks home by manifest: `config.yaml`, `BOOT.md`, the manifest and
 * declared `files:` of every enabled plugin and gateway hook (their code is compiled into the
 * bundle), every script an enabled shell hook's command names, and the files a shell-hook
 * entry lists under `files:` — never dotfiles (`.env*`, `.hookgate/`), `sessions/`, `logs/`,
 * `memories/`, `node_modules/` or allowlist files, wherever they are; never a disabled plugin
 * or an undeclared file.
 *
 * Nothing is followed: every shipped directory is walked with `lstat`, and a symbolic link
 * there or on the way to a shipped file (a link loop included) fails with its path — a link
 * named `notes` may point at `~/.ssh/id_rsa`.
 *
 * A command's script is looked for in the home, then in each of `searchDirs` (the working
 * directory and the repository, where a local run finds a relative command). A script that
 * is missing, or not runnable as configured (a bare `./hook.sh` needs +x, `bash hook.sh` +r),
 * fails with every such command named; so does one that calls a program the Lambda runtime
 * lacks (`jq`, `python3`…), unless it is named in `allowMissingInLambda`. A bare program
 * name (`my-binary`) is a PATH lookup and is left alone.
 *
 * @example
 * const plan = planHooksHomeFiles('/home/me/.hermes', entries, [process.cwd()], { units: [{ dir: 'plugins/guard', manifest: 'plugin.yaml' }] });
 * // plan.files → config.yaml, plugins/guard/plugin.yaml, agent-hooks/guard.sh, …
 */
export function planHooksHomeFiles(
  home: string,
  entries: readonly (ShellHookEntry & { files?: unknown })[],
  searchDirs: readonly string[],
  options: HooksHomePlanOptions = {},
): HooksHomePlan {
  const env = options.env ?? process.env;
  const allowMissing = new Set(options.allowMissingInLambda ?? []);
  const files = new Map<string, HomeFile>();
  const problems: string[] = [];
  const add = (source: string, target: string) => {
    const link = symlinkOnTheWay(home, source);
    if (link !== undefined) problems.push(`${link}: symbolic link, not bundled`);
    else if (!files.has(target)) files.set(target, { source, target, size: lstatSync(source).size });
  };
  for (const name of ['config.yaml', 'BOOT.md']) {
    if (isFileOrLink(join(home, name))) add(join(home, name), name);
  }
  for (const unit of options.units ?? []) {
    const dir = join(home, ...unit.dir.split('/'));
    // Every link under a shipped directory is refused, declared or not: it is the operator's to see.
    problems.push(...symlinksUnder(dir).map((link) => `${link}: symbolic link, not bundled`));
    add(join(dir, unit.manifest), `${unit.dir}/${unit.manifest}`);
    const declared = unit.files ?? [];
    if (!Array.isArray(declared) || declared.some((f) => typeof f !== 'string')) {
      problems.push(`${join(dir, unit.manifest)}: files: must be a list of paths relative to ${unit.dir}`);
      continue;
    }
    for (const file of declared as string[]) {
      const source = resolve(dir, file);
      const inDir = relative(dir, source);
      const parts = inDir.split(sep);
      if (inDir.startsWith('..') || isAbsolute(inDir) || parts.some(isNeverShipped)) {
        problems.push(
          `${join(dir, unit.manifest)}: files: ${file} is outside ${unit.dir} or a dotfile or state file; it is never bundled`,
        );
      } else if (!isFileOrLink(source)) {
        problems.push(`${join(dir, unit.manifest)}: files: ${file} not found`);
      } else {
        add(source, `${unit.dir}/${parts.join('/')}`);
      }
    }
  }

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
    return candidates.find(isFileOrLink);
  };
  const missingInLambda = (entry: ShellHookEntry, words: readonly string[], script?: { word: number; source: string }) => {
    const name = script ? basename(script.source) : (words[0] ?? entry.command);
    if (allowMissing.has(name) || allowMissing.has(entry.command)) return;
    const command = script ? joinShellWords(words.map((w, i) => (i === script.word ? script.source : w))) : entry.command;
    const missing = lambdaMissingPrograms(command, env);
    if (missing.length > 0) {
      problems.push(
        `hooks.${entry.event}: ${entry.command}: calls ${missing.join(', ')}, which the Lambda runtime (nodejs22.x) does not have; ` +
          `it would never run there (ship it anyway with -c allowHooksMissingInLambda=${name})`,
      );
    }
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
    if (scriptWord < 0 || !namesAFile) {
      missingInLambda(entry, words); // a program on PATH
      continue;
    }
    const source = locate(script);
    if (source === undefined) {
      problems.push(
        `hooks.${entry.event}: ${entry.command}: script ${script} not found in ${[home, ...searchDirs].join(' or ')}`,
      );
      continue;
    }
    if (isNeverShipped(basename(source))) {
      problems.push(`hooks.${entry.event}: ${entry.command}: ${source} is a dotfile or state file; it is never bundled`);
      continue;
    }
    if (lstatSync(source).isSymbolicLink()) {
      problems.push(`${source}: symbolic link, not bundled (hooks.${entry.event}: ${entry.command}; name the file it points to)`);
      continue;
    }
    try {
      accessSync(source, scriptWord === 0 ? constants.X_OK : constants.R_OK);
    } catch {
      problems.push(
        `hooks.${entry.event}: ${entry.command}: ${source} is not ${scriptWord === 0 ? 'executable (chmod +x)' : 'readable'}`,
      );
      continue;
    }
    missingInLambda(entry, words, { word: scriptWord, source });
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
    throw new HooksHomeFilesError(`hooks home ${home}: not bundled:\n  ${[...new Set(problems)].join('\n  ')}`);
  }
  const list = [...files.values()].sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return { files: list, totalBytes: list.reduce((sum, f) => sum + f.size, 0), shellCommands };
}

/**
 * The symbolic links of a hooks home where anything could ship from: `config.yaml`,
 * `BOOT.md`, and everything under `plugins/` and `hooks/` (dot and state names aside),
 * found with `lstat` so that a loop is just a link. Each is a synth error.
 *
 * @example
 * findHooksHomeSymlinks('/home/me/.hermes') // ['/home/me/.hermes/plugins/guard/env-link']
 */
export function findHooksHomeSymlinks(home: string): string[] {
  const top = ['config.yaml', 'BOOT.md']
    .map((name) => join(home, name))
    .filter((path) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink());
  return [...top, ...symlinksUnder(join(home, 'plugins')), ...symlinksUnder(join(home, 'hooks'))];
}

/** Exists as anything (a dangling or looping link too): what lstat sees, never followed. */
function isFileOrLink(path: string): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats !== undefined && (stats.isFile() || stats.isSymbolicLink());
}

/**
 * The first symbolic link on the path from the home (or, for a file outside it, the file
 * itself) to `file`, or undefined. The home directory itself may be a link.
 */
function symlinkOnTheWay(home: string, file: string): string | undefined {
  const inHome = relative(home, file);
  if (inHome.startsWith('..') || isAbsolute(inHome)) return lstatSync(file).isSymbolicLink() ? file : undefined;
  let path = home;
  for (const part of inHome.split(sep)) {
    path = join(path, part);
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return path;
  }
  return undefined;
}

/** Every symbolic link under `dir` (dot and state names skipped: they never ship), never followed. */
function symlinksUnder(dir: string): string[] {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (stats?.isSymbolicLink()) return [dir];
  if (!stats?.isDirectory()) return [];
  const links: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (isNeverShipped(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) links.push(path);
    else if (entry.isDirectory()) links.push(...symlinksUnder(path));
  }
  return links;
}

import { parseShell, ShellSyntaxError, type ShellStructure, type ShellWord, type SimpleCommand, type StdinSource } from './shell-syntax.ts';

/**
 * Terminal commands that need the user's yes before they run (issue 6 item 4, issue 12 item 5).
 *
 * The command line is parsed with a real shell parser (mvdan/sh, bash dialect) and every
 * simple command in it is judged on its own: through pipelines, `;`, `&&`, `||`, subshells,
 * `{ …; }`, `if`/`while`/`for`/`case`, functions, `$(…)`, backticks and `<(…)`; inside
 * `sh|bash|zsh … -c '<string>'`, `eval`, `su -c` and `find -exec`, recursively; behind the
 * wrappers of `WRAPPERS` (`env`, `sudo`, `nice`, `nohup`, `timeout`, `xargs`, `command`,
 * `exec`, …); with the program named by its path's last component (`/bin/rm`, `./rm`, `\rm`
 * are `rm`). This file is the one place that says what is dangerous:
 *
 * | key                     | what it catches                                                                |
 * |-------------------------|--------------------------------------------------------------------------------|
 * | `recursive_delete`      | `rm -r`/`-R`/`--recursive` of `/`, `~`, `*`, `.`, `..`, a path outside the workspace (`../x`), a top-level or system path, or a target only known at run time (`$X`, `$(…)`, `xargs`); `find … -delete`; `find … -exec rm` |
 * | `sudo`                  | `sudo`, `doas`, `su`, `pkexec`, `runuser`                                      |
 * | `world_writable_chmod`  | `chmod -R 777` (or `a+rwx`, `o+w`, …)                                          |
 * | `pipe_to_shell`         | text piped (or a here-document / `<(…)`) into a shell: `curl … \| sh`, `echo … \| bash`, `bash <(curl …)`, `source <(…)` |
 * | `make_filesystem`       | `mkfs`, `mkfs.*`, `mke2fs`, `mkswap`, `wipefs`, `fdisk`, `sfdisk`, `parted`    |
 * | `raw_disk_write`        | `dd of=/dev/<disk>`, `> /dev/sd*` (and other disks), `shred /dev/…`            |
 * | `fork_bomb`             | a function that calls itself (`:(){ :\|:& };:`)                               |
 * | `system_shutdown`       | `shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`, `systemctl reboot`, …    |
 * | `recursive_chown_root`  | `chown -R`/`chgrp -R` of a path `recursive_delete` counts as broad             |
 * | `git_force_push`        | `git push --force`/`-f`/`--force-with-lease`/`+refspec`                        |
 * | `kill_all`              | `kill … -1`, `killall5`, `pkill`/`killall` of `.` or `.*`                      |
 * | `inline_code`           | inline interpreter code, always: `python -c`, `node -e/-p`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, `deno eval`, an interpreter fed a pipe or here-document |
 * | `dynamic_command`       | a program, `-c` string or `eval` text only known at run time (`$X …`, `$(…) …`, `{rm,-rf,/}`, `/bin/r?`) |
 * | `unparseable`           | a command line the parser rejects (or nested too deep): it cannot be judged    |
 *
 * Harmless by design: `ls`, `git status`, `rm file.txt`, `rm -rf ./build`, `echo sudo`.
 */
export interface DangerousPattern {
  readonly key: string;
  readonly description: string;
  /** True when one simple command (after unwrapping) is dangerous this way. */
  readonly matches: (command: JudgedCommand) => boolean;
}

/** One simple command as the table judges it: program name (last path component) and arguments. */
export interface JudgedCommand {
  readonly program: string;
  readonly args: readonly ShellWord[];
  readonly writes: readonly ShellWord[];
  readonly stdin?: StdinSource;
  /** `xargs` appends arguments read from stdin: the targets are not all on the line. */
  readonly extraArgs: boolean;
}

export interface DangerousMatch {
  /** The first matching row's key and description (the approval's headline). */
  pattern_key: string;
  description: string;
  /** Every matching row's key, table order. */
  pattern_keys: string[];
}

const SYSTEM_DIRS = new Set(['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'usr', 'var', 'mnt', 'media', 'snap', 'Users', 'System', 'Library', 'Applications']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash']);
const DISK_DEVICE = /^\/dev\/(?:sd|hd|nvme|vd|xvd|disk|rdisk|mmcblk|md\d|dm-|loop|mapper\/|nbd)/;

/**
 * Commands that run another command: their options (those taking a value listed), positional
 * arguments before the command, and options after which nothing is run (`command -v`).
 */
interface Wrapper {
  readonly valueOptions?: readonly string[];
  readonly positionals?: number;
  readonly lookupOnly?: readonly string[];
  /** Words of the form NAME=VALUE before the command are settings (`env`). */
  readonly assignments?: boolean;
  /** Options whose value is itself a command line (`env -S`, `su -c`, `runuser -c`). */
  readonly shellOptions?: readonly string[];
  /** The command gets more arguments from stdin (`xargs`). */
  readonly extraArgs?: boolean;
}

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  env: { valueOptions: ['-u', '--unset', '-C', '--chdir'], assignments: true, shellOptions: ['-S', '--split-string'] },
  sudo: { valueOptions: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user', '--close-from', '--command-timeout'], assignments: true, lookupOnly: ['-l', '--list', '-v', '--validate', '-K', '-V', '--version', '--help'] },
  doas: { valueOptions: ['-u', '-C'] },
  su: { valueOptions: ['-g', '-G', '-s', '--shell', '--group', '--supp-group', '-w', '--whitelist-environment'], positionals: 1, shellOptions: ['-c', '--command', '--session-command'] },
  runuser: { valueOptions: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell', '-w'], shellOptions: ['-c', '--command', '--session-command'] },
  pkexec: { valueOptions: ['--user'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  nohup: {},
  setsid: {},
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  xargs: { valueOptions: ['-I', '-L', '-l', '-n', '-P', '-s', '-d', '-E', '-e', '-a', '--arg-file', '--delimiter', '--eof', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--replace', '--process-slot-var'], extraArgs: true },
  command: { lookupOnly: ['-v', '-V'] },
  builtin: {},
  exec: { valueOptions: ['-a'] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  chroot: { valueOptions: ['--userspec', '--groups'], positionals: 1 },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, shellOptions: ['-c', '--command'] },
  watch: { valueOptions: ['-n', '--interval', '-d', '--differences'] },
  busybox: {},
  caffeinate: { valueOptions: ['-t', '-w'] },
  unbuffer: {},
  strace: { valueOptions: ['-e', '-o', '-p', '-s', '-u'] },
  ltrace: { valueOptions: ['-e', '-o', '-p', '-s', '-u'] },
};

/** Interpreters and the options that put program text on the command line. */
interface Interpreter {
  readonly inline: (arg: string) => boolean;
  /** Options taking a value (skipped when looking for the script argument). */
  readonly valueOptions?: readonly string[];
  /** A first argument that runs inline code (`deno eval`). */
  readonly inlineSubcommand?: string;
  /** Options after which the script is a module or file, not stdin (`python -m x`). */
  readonly scriptOptions?: readonly string[];
}

const cluster = (letter: string) => (arg: string) => new RegExp(`^-[A-Za-z0-9.]*${letter}$`).test(arg);
const PYTHON: Interpreter = { inline: cluster('c'), valueOptions: ['-W', '-X', '-Q'], scriptOptions: ['-m'] };
const NODE: Interpreter = { inline: (a) => /^(?:-e|-p|-pe|--eval|--print)(?:=.*)?$/.test(a), valueOptions: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type'] };
export const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  node: NODE,
  nodejs: NODE,
  bun: { inline: (a) => /^(?:-e|-p|--eval|--print)(?:=.*)?$/.test(a) },
  deno: { inline: () => false, inlineSubcommand: 'eval' },
  perl: { inline: cluster('[eE]'), valueOptions: ['-I', '-M', '-m'] },
  ruby: { inline: cluster('e'), valueOptions: ['-I', '-r', '-C', '-E'] },
  php: { inline: (a) => a === '-r' || a === '-a' || /^-[A-Za-z]*r$/.test(a), valueOptions: ['-c', '-d', '-z'] },
  lua: { inline: (a) => a === '-e', valueOptions: ['-l'] },
  luajit: { inline: (a) => a === '-e', valueOptions: ['-l'] },
  Rscript: { inline: (a) => a === '-e' || a === '--expr' },
  osascript: { inline: (a) => a === '-e' },
  tclsh: { inline: () => false },
  python: PYTHON,
};

function interpreterOf(program: string): Interpreter | undefined {
  if (/^(?:python|pypy)[0-9.]*$/.test(program)) return PYTHON;
  return Object.hasOwn(INTERPRETERS, program) ? INTERPRETERS[program] : undefined;
}

const texts = (args: readonly ShellWord[]) => args.map((a) => a.text);
/** Arguments before `--` that are options; after it, none. */
function optionsOf(args: readonly ShellWord[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg.text === '--') break;
    if (arg.text.startsWith('-') && arg.text !== '-') out.push(arg.text);
  }
  return out;
}
function operandsOf(args: readonly ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.text === '--') {
      options = false;
      continue;
    }
    if (options && arg.text.startsWith('-') && arg.text !== '-' && !arg.dynamic) continue;
    out.push(arg);
  }
  return out;
}
const hasShortFlag = (options: readonly string[], letter: string, long?: string) =>
  options.some((o) => (o.startsWith('--') ? o === long : o.length > 1 && o.slice(1).includes(letter)));

/**
 * A path a recursive delete or chown must not touch without asking: the root, home, the
 * working directory itself or everything in it, anything above it, a top-level or system path,
 * or a path only known at run time.
 */
export function isBroadPath(word: ShellWord): boolean {
  if (word.dynamic) return true;
  let path = word.text.replace(/\/+$/g, '/');
  if (path === '') return false;
  if (word.glob && /^(?:\.\/)?[*?]+\/?$|^\.\*$|^\/\*$/.test(path)) return true;
  if (/^~[^/]*\/?(?:\*)?$/.test(path)) return true;
  path = path.replace(/\/\*$/, '/');
  if (/^\.\/?$/.test(path)) return true;
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (path.startsWith('/')) return parts.length <= 1 || SYSTEM_DIRS.has(parts[0]!);
  // Relative: broad when it climbs out of the working directory.
  let depth = 0;
  for (const part of parts) {
    depth += part === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return depth === 0;
}

const recursive = (c: JudgedCommand) => hasShortFlag(optionsOf(c.args), 'r', '--recursive') || hasShortFlag(optionsOf(c.args), 'R', '--recursive');
const broadTargets = (c: JudgedCommand, skip = 0) => c.extraArgs || operandsOf(c.args).slice(skip).some(isBroadPath);

/** Index of the word after `find`'s `-exec`/`-execdir`/`-ok`/`-okdir`, and the words up to `;` or `+`. */
function findExecs(args: readonly ShellWord[]): ShellWord[][] {
  const out: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.text)) continue;
    const words: ShellWord[] = [];
    for (i++; i < args.length && args[i]!.text !== ';' && args[i]!.text !== '+'; i++) {
      const arg = args[i]!;
      // `{}` is each path found: only known at run time.
      words.push(arg.text.includes('{}') ? { ...arg, dynamic: true } : arg);
    }
    out.push(words);
  }
  return out;
}

function gitSubcommand(args: readonly ShellWord[]): { name: string; rest: ShellWord[] } | undefined {
  const valued = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (valued.has(text)) {
      i++;
      continue;
    }
    if (text.startsWith('-')) continue;
    return { name: text, rest: args.slice(i + 1) };
  }
  return undefined;
}

export const DANGEROUS_PATTERNS: readonly DangerousPattern[] = [
  {
    key: 'recursive_delete',
    description: 'recursive delete of a broad path',
    matches: (c) =>
      (c.program === 'rm' && recursive(c) && broadTargets(c)) ||
      (c.program === 'find' && (texts(c.args).includes('-delete') || findExecs(c.args).some((words) => ['rm', 'unlink', 'shred', 'rmdir'].includes(programName(words[0]))))),
  },
  { key: 'sudo', description: 'runs a command as root', matches: (c) => ['sudo', 'doas', 'su', 'pkexec', 'runuser'].includes(c.program) },
  {
    key: 'world_writable_chmod',
    description: 'recursively makes files world-writable',
    matches: (c) => c.program === 'chmod' && recursive(c) && operandsOf(c.args).some((a) => /^[0-7]{1,3}[2367]$|^[augo]*[ao][augo]*[+=][rwxXst]*w/.test(a.text)),
  },
  {
    key: 'pipe_to_shell',
    description: 'pipes text into a shell',
    matches: (c) => {
      if (c.program === 'source' || c.program === '.') return c.args[0]?.dynamic === true;
      if (!SHELLS.has(c.program)) return false;
      const shell = shellInvocation(c.args);
      if (shell.command !== undefined) return false;
      if (shell.script) return shell.script.dynamic;
      return c.stdin !== undefined;
    },
  },
  {
    key: 'make_filesystem',
    description: 'creates or wipes a filesystem',
    matches: (c) => /^mkfs(?:\..+)?$/.test(c.program) || ['mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'parted', 'sgdisk'].includes(c.program),
  },
  {
    key: 'raw_disk_write',
    description: 'writes raw data to a device',
    matches: (c) =>
      c.writes.some((w) => DISK_DEVICE.test(w.text)) ||
      (c.program === 'dd' && c.args.some((a) => a.text.startsWith('of=') && DISK_DEVICE.test(a.text.slice(3)))) ||
      (c.program === 'shred' && c.args.some((a) => a.text.startsWith('/dev/'))),
  },
  { key: 'fork_bomb', description: 'fork bomb', matches: () => false },
  {
    key: 'system_shutdown',
    description: 'shuts down or reboots the machine',
    matches: (c) =>
      ['shutdown', 'reboot', 'halt', 'poweroff'].includes(c.program) ||
      (['init', 'telinit'].includes(c.program) && ['0', '6'].includes(c.args[0]?.text ?? '')) ||
      (c.program === 'systemctl' && c.args.some((a) => ['poweroff', 'reboot', 'halt', 'kexec', 'emergency', 'rescue'].includes(a.text))),
  },
  {
    key: 'recursive_chown_root',
    description: 'recursively changes the owner of a system path',
    matches: (c) => (c.program === 'chown' || c.program === 'chgrp') && recursive(c) && broadTargets(c, 1),
  },
  {
    key: 'git_force_push',
    description: 'force-pushes (rewrites shared history)',
    matches: (c) => {
      if (c.program !== 'git') return false;
      const sub = gitSubcommand(c.args);
      if (sub?.name !== 'push') return false;
      return sub.rest.some((a) => /^--force(?:-with-lease)?(?:=.*)?$|^--force-if-includes$/.test(a.text) || /^-[A-Za-z]*f[A-Za-z]*$/.test(a.text) || (/^\+/.test(a.text)));
    },
  },
  {
    key: 'kill_all',
    description: 'kills every process',
    matches: (c) => {
      if (c.program === 'killall5') return true;
      if (c.program === 'pkill' || c.program === 'killall') return operandsOf(c.args).some((a) => ['.', '.*', '^', ''].includes(a.text));
      if (c.program !== 'kill') return false;
      let args = texts(c.args);
      if (args[0] === '-s' || args[0] === '-n') args = args.slice(2);
      else if (args.length > 1 && /^-(?:\d+|[A-Z]+|SIG[A-Z]+)$/.test(args[0]!)) args = args.slice(1);
      return args.filter((a) => a !== '--').includes('-1');
    },
  },
  {
    key: 'inline_code',
    description: 'runs inline interpreter code',
    matches: (c) => {
      const interpreter = interpreterOf(c.program);
      if (!interpreter) return false;
      if (interpreter.inlineSubcommand && c.args[0]?.text === interpreter.inlineSubcommand) return true;
      for (let i = 0; i < c.args.length; i++) {
        const arg = c.args[i]!.text;
        if (interpreter.inline(arg)) return true;
        if (interpreter.valueOptions?.includes(arg)) {
          i++;
          continue;
        }
        if (interpreter.scriptOptions?.includes(arg)) return false;
        if (arg === '-') return c.stdin !== undefined;
        // The script: a file is fine; one that is only a substitution (`<(curl …)`, `$(…)`) is code made on the spot.
        if (!arg.startsWith('-')) return arg === '\u0000';
      }
      // No script: the program text comes from stdin.
      return c.stdin !== undefined;
    },
  },
  { key: 'dynamic_command', description: 'runs a command only known at run time', matches: () => false },
  { key: 'unparseable', description: 'a command line that cannot be parsed', matches: () => false },
];

const MAX_DEPTH = 8;

/** The program a word names: its last path component, with quoting already removed. */
function programName(word: ShellWord | undefined): string {
  if (!word) return '';
  const text = word.text;
  return text.slice(text.lastIndexOf('/') + 1);
}

/** `sh [options] -c STRING` / `sh [options] SCRIPT` / `sh` reading stdin. */
function shellInvocation(args: readonly ShellWord[]): { command?: ShellWord; script?: ShellWord } {
  let wantsCommand = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = arg.text;
    if (text === '--') {
      const next = args[i + 1];
      return wantsCommand ? (next ? { command: next } : {}) : next ? { script: next } : {};
    }
    if (/^[-+]o$/.test(text) || text === '--rcfile' || text === '--init-file') {
      i++;
      continue;
    }
    if (/^-[A-Za-z]+$/.test(text)) {
      if (text.includes('c')) wantsCommand = true;
      if (text.includes('s')) return {};
      continue;
    }
    if (text.startsWith('--') || /^\+[A-Za-z]+$/.test(text)) continue;
    return wantsCommand ? { command: arg } : { script: arg };
  }
  return {};
}

/**
 * The dangerous patterns a terminal command matches, or undefined when it is harmless.
 *
 * @example
 * await detectDangerousCommand('/bin/rm -rf /')       // { pattern_key: 'recursive_delete', … }
 * await detectDangerousCommand('sh -c "sudo true"')   // { pattern_key: 'sudo', … }
 * await detectDangerousCommand('ls -la')               // undefined
 */
export async function detectDangerousCommand(command: string): Promise<DangerousMatch | undefined> {
  const keys = new Set<string>();
  await judgeLine(command, keys, 0);
  const rows = DANGEROUS_PATTERNS.filter((row) => keys.has(row.key));
  if (rows.length === 0) return undefined;
  return { pattern_key: rows[0]!.key, description: rows[0]!.description, pattern_keys: rows.map((row) => row.key) };
}

async function judgeLine(source: string, keys: Set<string>, depth: number): Promise<void> {
  if (depth > MAX_DEPTH) {
    keys.add('unparseable');
    return;
  }
  let structure: ShellStructure;
  try {
    structure = await parseShell(source);
  } catch (error) {
    if (error instanceof ShellSyntaxError) {
      keys.add('unparseable');
      return;
    }
    throw error;
  }
  if (structure.selfCallingFunctions.length > 0) keys.add('fork_bomb');
  for (const command of structure.commands) await judgeSimple(command, keys, depth);
}

async function judgeSimple(command: SimpleCommand, keys: Set<string>, depth: number): Promise<void> {
  let words = [...command.words];
  let extraArgs = false;
  const base = { writes: command.writes, ...(command.stdin ? { stdin: command.stdin } : {}) };
  if (words.length === 0) {
    judge({ program: '', args: [], extraArgs, ...base }, keys);
    return;
  }
  for (let hops = 0; hops <= MAX_DEPTH; hops++) {
    const head = words[0];
    if (!head) return;
    if (head.dynamic || head.glob) {
      keys.add('dynamic_command');
      return;
    }
    const program = programName(head);
    const args = words.slice(1);
    judge({ program, args, extraArgs, ...base }, keys);

    if (program === 'eval') {
      if (args.some((a) => a.dynamic)) keys.add('dynamic_command');
      else await judgeLine(texts(args).join(' '), keys, depth + 1);
      return;
    }
    if (SHELLS.has(program) || (program === 'busybox' && SHELLS.has(args[0]?.text ?? ''))) {
      const shell = shellInvocation(program === 'busybox' ? args.slice(1) : args);
      if (shell.command) {
        if (shell.command.dynamic) keys.add('dynamic_command');
        else await judgeLine(shell.command.text, keys, depth + 1);
      }
      return;
    }
    if (program === 'find') {
      for (const exec of findExecs(args)) await judgeSimple({ words: exec, writes: [] }, keys, depth + 1);
      return;
    }
    if (program === 'watch') {
      // watch runs its arguments through `sh -c`.
      const rest = unwrap(WRAPPERS.watch!, args);
      if (rest.words.length > 0) {
        if (rest.words.some((w) => w.dynamic)) keys.add('dynamic_command');
        else await judgeLine(texts(rest.words).join(' '), keys, depth + 1);
      }
      return;
    }
    const wrapper = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
    if (!wrapper) return;
    const rest = unwrap(wrapper, args);
    if (rest.lookupOnly) return;
    for (const line of rest.shellLines) {
      if (line.dynamic) keys.add('dynamic_command');
      else await judgeLine(line.text, keys, depth + 1);
    }
    if (wrapper.extraArgs) extraArgs = true;
    if (rest.words.length === 0) return;
    words = rest.words;
  }
  keys.add('unparseable');
}

/** The command a wrapper runs: its words after the wrapper's options, settings and positionals. */
function unwrap(wrapper: Wrapper, args: readonly ShellWord[]): { words: ShellWord[]; shellLines: ShellWord[]; lookupOnly: boolean } {
  const shellLines: ShellWord[] = [];
  let positionals = wrapper.positionals ?? 0;
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '--') {
      i++;
      break;
    }
    if (wrapper.lookupOnly?.includes(text)) return { words: [], shellLines, lookupOnly: true };
    if (wrapper.shellOptions?.includes(text)) {
      const line = args[i + 1];
      if (line) shellLines.push(line);
      i++;
      continue;
    }
    const long = /^(--[^=]+)=/.exec(text);
    if (long) {
      if (wrapper.shellOptions?.includes(long[1]!)) shellLines.push({ ...args[i]!, text: text.slice(long[0].length) });
      continue;
    }
    if (wrapper.valueOptions?.includes(text)) {
      i++;
      continue;
    }
    if (text.startsWith('-') && text !== '-') continue;
    if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue;
    // Positionals (a duration, a user, a new root, a lock file) may sit among the options.
    if (positionals > 0) {
      positionals--;
      continue;
    }
    break;
  }
  // `su user -c …` runs only its -c line; other wrappers run the words left.
  const words = wrapper.shellOptions && shellLines.length > 0 && wrapper !== WRAPPERS.env ? [] : args.slice(i);
  return { words, shellLines, lookupOnly: false };
}

function judge(command: JudgedCommand, keys: Set<string>): void {
  for (const row of DANGEROUS_PATTERNS) if (row.matches(command)) keys.add(row.key);
}

import { posix } from 'node:path';
import {
  parseShell,
  ShellSyntaxError,
  type ShellFunction,
  type ShellStructure,
  type ShellWord,
  type SimpleCommand,
  type StdinSource,
} from './shell-syntax.ts';

/**
 * Terminal commands that need the user's yes before they run (issue 6 item 4, issue 12 item 5,
 * issue 24 item 6). Defence in depth: the sandbox is the boundary; this check asks before the
 * commands whose damage the sandbox may not contain (a deployment without one, a workspace the
 * user cares about).
 *
 * The command line is parsed with a real shell parser (mvdan/sh, bash dialect) and every
 * simple command in it is judged on its own: through pipelines, `;`, `&&`, `||`, subshells,
 * `{ …; }`, `if`/`while`/`for`/`case`, functions, `$(…)`, backticks and `<(…)`; inside
 * `sh|bash|zsh … -c '<string>'`, `eval`, `su -c`, `script -c`, `alias` values, `parallel` and
 * `find -exec`, recursively; behind the wrappers of `WRAPPERS` (`env`, `sudo`, `nice`, `nohup`,
 * `timeout`, `xargs`, `taskset`, `chrt`, `unshare`, `setpriv`, `prlimit`, `busybox`, …); with the
 * program named by its path's last component (`/bin/rm`, `./rm`, `\rm` are `rm`). Judged by
 * structure: long options by any prefix getopt accepts (`--rec` is `--recursive`), paths
 * normalised (`/tmp/../etc` is `/etc`), relative paths after a `cd` resolved against it (or
 * unknown), and a word only known at run time (`$X`, `"$@"`) counted as whatever it could be.
 * This file is the one place that says what is dangerous:
 *
 * | key                     | what it catches                                                                |
 * |-------------------------|--------------------------------------------------------------------------------|
 * | `recursive_delete`      | `rm -r`/`-R`/`--recursive` (or `--rec`, …) of `/`, `~`, `~/.*`, `*`, `.`, `..`, a path outside the workspace (`../x`, `cd / && rm -rf tmp`), a top-level or system path (`/tmp/../etc`), or a target only known at run time (`$X`, `$(…)`, `xargs`, `parallel`); `rm $ARGS`; `find … -delete`; `find … -exec rm` (also behind a wrapper) |
 * | `sudo`                  | `sudo`, `doas`, `su`, `pkexec`, `runuser`                                      |
 * | `world_writable_chmod`  | `chmod -R 777` (or `a+rwx`, `o+w`, `--rec`, …); on a system path, any mode granting group/other write or set-id (`o+w`, `g+s`, `4755`, `a=rwx`, `o=u`), `--reference` or a mode only known at run time |
 * | `pipe_to_shell`         | text piped (or a here-document / `<(…)`) into a shell: `curl … \| sh`, `echo … \| bash`, `bash <(curl …)`, `source <(…)` |
 * | `make_filesystem`       | every `mkfs`, `mkfs.*`, `mk*fs` (`mkdosfs`, `mkntfs`, `mke2fs`, …), `mkswap`, `wipefs`, `fdisk`, `sfdisk`, `cfdisk`, `gdisk`, `sgdisk`, `parted`, `blkdiscard` |
 * | `raw_disk_write`        | a write to a block or memory device (`/dev/sd*`, `nvme*`, `mmcblk*`, `mapper/*`, `/dev/mem`, `/dev/kmem`, …, normalised) by `>`, `tee`, `dd of=`, `cp`/`install`/`rsync` to it, `sponge`, `truncate`, `shred` |
 * | `fork_bomb`             | functions that call themselves, directly or through each other, whatever their names (`:(){ :\|:& };:`, `a(){ b&b; }; b(){ a&a; }`) |
 * | `system_shutdown`       | `shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`, `systemctl reboot`, …; a write to `/proc/sysrq-trigger` or `/sys/power/state` |
 * | `recursive_chown_root`  | `chown -R`/`chgrp -R` of a broad path; `chown`/`chgrp` (with `--reference` too) of a system path |
 * | `git_force_push`        | `git push` with `-f`, `--force`, `--force-with-lease`, `--force-if-includes`, `--mirror`, `--delete`/`-d`, `--prune` (or a prefix of them), a `+refspec` or a `:ref`, or an argument only known at run time |
 * | `kill_all`              | `kill` of `-1`, `0`, `1`, a process group (`-N`) or a pid only known at run time; `killall5`; `pkill`/`killall` of every process of a user (`-u`, `-U`, `--euid`, …), a group or session, or a pattern matching every name (`.`, `.*`, `^`) |
 * | `inline_code`           | inline interpreter code, always: `python -c`, `node -e/-p`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, `deno eval`, an interpreter fed a pipe or here-document |
 * | `dynamic_command`       | a program, `-c` string, `eval` text or alias only known at run time (`$X …`, `$(…) …`, `{rm,-rf,/}`, `/bin/r?`, `git -c alias.x=…`) |
 * | `unparseable`           | a command line the parser rejects (or nested too deep): it cannot be judged    |
 *
 * Harmless by design: `ls`, `git status`, `git push origin main`, `rm file.txt`,
 * `rm -rf ./build`, `cd build && rm -rf dist`, `chmod +x /usr/local/bin/tool`, `echo sudo`.
 */
export interface DangerousPattern {
  readonly key: string;
  readonly description: string;
  /** True when one simple command (after unwrapping) is dangerous this way. */
  readonly matches: (command: JudgedCommand) => boolean;
}

/**
 * The working directory a relative path is resolved against: `known` with the path relative
 * to where the command line started (`''` = there), or unknown after `cd /x`, `cd $X`, `cd -`.
 */
export type WorkingDirectory = { readonly known: true; readonly path: string } | { readonly known: false };

/** One simple command as the table judges it: program name (last path component) and arguments. */
export interface JudgedCommand {
  readonly program: string;
  readonly args: readonly ShellWord[];
  readonly writes: readonly ShellWord[];
  readonly stdin?: StdinSource;
  /** `xargs` appends arguments read from stdin: the targets are not all on the line. */
  readonly extraArgs: boolean;
  /** Where relative paths point (default: the workspace, where the line started). */
  readonly cwd?: WorkingDirectory;
}

export interface DangerousMatch {
  /** The first matching row's key and description (the approval's headline). */
  pattern_key: string;
  description: string;
  /** Every matching row's key, table order. */
  pattern_keys: string[];
}

const SYSTEM_DIRS = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'srv',
  'sys',
  'usr',
  'var',
  'mnt',
  'media',
  'snap',
  'Users',
  'System',
  'Library',
  'Applications',
]);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash']);
/** Block devices (disks, partitions, volumes) and memory devices, after normalisation. */
const DEVICE =
  /^\/dev\/(?:sd|hd|nvme|vd|xvd|disk\/|disk\d|rdisk|mmcblk|md\d|md\/|dm-|loop\d|mapper\/|nbd|sr\d|scd|zram|ram\d|rbd|bcache|mtd|ubi|fd\d|mem$|kmem$|port$)/;
/** Files whose write halts, reboots or crashes the machine. */
const SHUTDOWN_FILES = new Set(['/proc/sysrq-trigger', '/sys/power/state']);
const WORKSPACE: WorkingDirectory = { known: true, path: '' };

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
  /** Options whose value is itself a command line (`env -S`, `su -c`, `script -c`). */
  readonly shellOptions?: readonly string[];
  /** The command gets more arguments from stdin (`xargs`). */
  readonly extraArgs?: boolean;
  /** Options that move the command to another directory (`env -C DIR`): relative paths are then unknown. */
  readonly chdirOptions?: readonly string[];
  /** The words after the options are one command line run by a shell (`watch`, `sg GROUP`). */
  readonly wordsAreLine?: boolean;
  /** The words after the options are not a command (`script [FILE]` runs only its `-c`). */
  readonly wordsAreNotCommand?: boolean;
}

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  env: {
    valueOptions: ['-u', '--unset', '-C', '--chdir', '-P'],
    assignments: true,
    shellOptions: ['-S', '--split-string'],
    chdirOptions: ['-C', '--chdir'],
  },
  sudo: {
    valueOptions: [
      '-u',
      '-g',
      '-h',
      '-p',
      '-C',
      '-D',
      '-r',
      '-t',
      '-T',
      '-U',
      '--user',
      '--group',
      '--host',
      '--prompt',
      '--chdir',
      '--role',
      '--type',
      '--other-user',
      '--close-from',
      '--command-timeout',
    ],
    assignments: true,
    lookupOnly: ['-l', '--list', '-v', '--validate', '-K', '-V', '--version', '--help'],
    chdirOptions: ['-D', '--chdir'],
  },
  doas: { valueOptions: ['-u', '-C'] },
  su: {
    valueOptions: ['-g', '-G', '-s', '--shell', '--group', '--supp-group', '-w', '--whitelist-environment'],
    positionals: 1,
    shellOptions: ['-c', '--command', '--session-command'],
  },
  runuser: {
    valueOptions: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell', '-w'],
    shellOptions: ['-c', '--command', '--session-command'],
  },
  pkexec: { valueOptions: ['--user'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  nohup: {},
  setsid: {},
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  xargs: {
    valueOptions: [
      '-I',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '-d',
      '-E',
      '-e',
      '-a',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--replace',
      '--process-slot-var',
    ],
    extraArgs: true,
  },
  command: { lookupOnly: ['-v', '-V'] },
  builtin: {},
  exec: { valueOptions: ['-a'] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  chroot: { valueOptions: ['--userspec', '--groups'], positionals: 1 },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, shellOptions: ['-c', '--command'] },
  watch: { valueOptions: ['-n', '--interval', '-d', '--differences', '-q', '--equexit'], wordsAreLine: true },
  busybox: {},
  toybox: {},
  caffeinate: { valueOptions: ['-t', '-w'] },
  unbuffer: {},
  strace: { valueOptions: ['-e', '-o', '-p', '-s', '-u', '-P', '-I', '-b', '-a', '-X', '-O', '-S', '-U'] },
  ltrace: { valueOptions: ['-e', '-o', '-p', '-s', '-u', '-a', '-A', '-D', '-F', '-l', '-n', '-x'] },
  taskset: { positionals: 1, lookupOnly: ['-p', '--pid'] },
  chrt: {
    valueOptions: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'],
    positionals: 1,
    lookupOnly: ['-p', '--pid', '-m', '--max'],
  },
  unshare: {
    valueOptions: [
      '-S',
      '--setuid',
      '-G',
      '--setgid',
      '-R',
      '--root',
      '-w',
      '--wd',
      '--map-user',
      '--map-group',
      '--map-users',
      '--map-groups',
      '--propagation',
      '--setgroups',
      '--monotonic',
      '--boottime',
    ],
    chdirOptions: ['-w', '--wd', '-R', '--root'],
  },
  setpriv: {
    valueOptions: [
      '--reuid',
      '--regid',
      '--ruid',
      '--euid',
      '--rgid',
      '--egid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--pdeathsig',
      '--selinux-label',
      '--apparmor-profile',
      '--landlock-access',
      '--landlock-rule',
    ],
    lookupOnly: ['-d', '--dump', '--list-caps'],
  },
  prlimit: { valueOptions: ['-o', '--output'], lookupOnly: ['-p', '--pid'] },
  script: {
    valueOptions: [
      '-E',
      '--echo',
      '-I',
      '--log-in',
      '-O',
      '--log-out',
      '-B',
      '--log-io',
      '-T',
      '--log-timing',
      '-m',
      '--logging-format',
      '-o',
      '--output-limit',
    ],
    shellOptions: ['-c', '--command'],
    wordsAreNotCommand: true,
  },
  nsenter: {
    valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-W', '--wdns'],
    chdirOptions: ['-w', '--wd', '-r', '--root', '-W', '--wdns'],
  },
  'systemd-run': {
    valueOptions: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '--description',
      '--slice',
      '-E',
      '--setenv',
      '-H',
      '--host',
      '-M',
      '--machine',
      '--uid',
      '--gid',
      '--nice',
      '--working-directory',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-unit-active',
      '--on-unit-inactive',
      '--on-calendar',
      '--timer-property',
      '--path-property',
      '--socket-property',
      '--service-type',
    ],
    chdirOptions: ['--working-directory', '-d', '--same-dir'],
  },
  fakeroot: { valueOptions: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  sg: { positionals: 1, shellOptions: ['-c'], wordsAreLine: true },
  firejail: {},
  torsocks: {},
  proxychains: { valueOptions: ['-f'] },
  proxychains4: { valueOptions: ['-f'] },
};

/** `parallel`'s options that take a value (its command follows them, its arguments follow `:::`). */
const PARALLEL_VALUE_OPTIONS = [
  '-j',
  '--jobs',
  '-S',
  '--sshlogin',
  '-a',
  '--arg-file',
  '-d',
  '--delimiter',
  '-I',
  '--colsep',
  '-C',
  '--joblog',
  '-N',
  '-n',
  '--max-args',
  '-L',
  '--max-lines',
  '--timeout',
  '--env',
  '--tmpdir',
  '--results',
  '--retries',
  '-E',
  '--eof',
  '--sshloginfile',
  '--slf',
  '--basefile',
  '--bf',
  '--workdir',
  '--wd',
  '--delay',
  '--memfree',
  '--load',
  '--nice',
  '--tagstring',
  '--tag-string',
  '--header',
];
const PARALLEL_SEPARATORS = new Set([':::', '::::', ':::+', '::::+']);

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

/**
 * A cluster of short options (`-uc`, `-le`, `-e0`) that holds `inline`, the option whose value is the program text, as
 * getopt reads it: its value is the rest of the word (`-eprint`, `-e0`) or the next one (`-le 'print'`). Letters in
 * `takesRest` (`-I dir`, `-Mmodule`, `-Werror`) take the rest of the word as their own value, so an `e` after them is
 * not an option.
 */
const cluster =
  (inline: string, takesRest: string) =>
  (arg: string): boolean => {
    if (!/^-[^-]/.test(arg)) return false;
    for (const letter of arg.slice(1)) {
      if (inline.includes(letter)) return true;
      if (takesRest.includes(letter)) return false;
    }
    return false;
  };
const PYTHON: Interpreter = { inline: cluster('c', 'WXQm'), valueOptions: ['-W', '-X', '-Q'], scriptOptions: ['-m'] };
const NODE: Interpreter = {
  inline: (a) => /^(?:-e|-p|-pe|--eval|--print)(?:=.*)?$/.test(a),
  valueOptions: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type'],
};
export const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  node: NODE,
  nodejs: NODE,
  bun: { inline: (a) => /^(?:-e|-p|--eval|--print)(?:=.*)?$/.test(a) },
  deno: { inline: () => false, inlineSubcommand: 'eval' },
  // perl's -i (a backup suffix: `-pie` is -p -i with suffix `e`), -x, -d, -D, -C take the rest of the word; -I, -M, -m
  // too, or the next word. -0 and -l take digits only, so a letter after them is a switch of its own (`-le`).
  perl: { inline: cluster('eE', 'IMmixdDC'), valueOptions: ['-I', '-M', '-m'] },
  ruby: { inline: cluster('e', 'IrCExFiKWT'), valueOptions: ['-I', '-r', '-C', '-E'] },
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
function operandsOf(args: readonly ShellWord[], valueOptions: readonly string[] = []): ShellWord[] {
  const out: ShellWord[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options && arg.text === '--') {
      options = false;
      continue;
    }
    if (options && arg.text.startsWith('-') && arg.text !== '-' && !arg.dynamic) {
      if (valueOptions.includes(arg.text)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}
/** Dynamic words among the options (before `--`): at run time each may be any option. */
const dynamicOptions = (args: readonly ShellWord[]) => {
  const out: ShellWord[] = [];
  for (const arg of args) {
    if (arg.text === '--') break;
    if (arg.dynamic) out.push(arg);
  }
  return out;
};

/**
 * Whether an option word names the long option `name`, as getopt_long reads it: exactly, or by
 * a prefix that no other of the program's long options (`known`) shares. `--rec` is
 * `--recursive` for rm; `--re` is nothing for chmod (`--recursive` or `--reference`?), which
 * refuses it.
 */
function isLongOption(arg: string, name: string, known: readonly string[]): boolean {
  const word = arg.split('=', 1)[0]!;
  if (!word.startsWith('--') || word.length < 3) return false;
  if (word === name) return true;
  if (!name.startsWith(word)) return false;
  const candidates = new Set([...known, name].filter((option) => option.startsWith(word)));
  return candidates.size === 1 || [...candidates].every((option) => option === name || option.startsWith(`${name}-`));
}
/** Whether a short option cluster (`-rf`, `-Rv`) holds `letter`. */
const hasShortLetter = (options: readonly string[], letter: string) =>
  options.some((o) => !o.startsWith('--') && o.length > 1 && o.slice(1).includes(letter));

const RM_LONG = [
  '--force',
  '--interactive',
  '--one-file-system',
  '--no-preserve-root',
  '--preserve-root',
  '--recursive',
  '--dir',
  '--verbose',
  '--help',
  '--version',
];
const CHMOD_LONG = [
  '--changes',
  '--silent',
  '--quiet',
  '--verbose',
  '--no-preserve-root',
  '--preserve-root',
  '--reference',
  '--recursive',
  '--help',
  '--version',
];
const CHOWN_LONG = [...CHMOD_LONG, '--dereference', '--no-dereference', '--from'];
const recursiveFlag = (c: JudgedCommand, known: readonly string[]) => {
  const options = optionsOf(c.args);
  return (
    hasShortLetter(options, 'r') || hasShortLetter(options, 'R') || options.some((o) => isLongOption(o, '--recursive', known))
  );
};

/**
 * A path a recursive delete or chown must not touch without asking: the root, home (and
 * anything directly in it: `~/.ssh`, `~/.*`), the working directory itself or everything in
 * it, anything above it, a top-level or system path (after normalisation: `/tmp/../etc` is
 * `/etc`), a relative path after a `cd` out of the workspace, or a path only known at run time.
 */
export function isBroadPath(word: ShellWord, cwd: WorkingDirectory = WORKSPACE): boolean {
  if (word.dynamic) return true;
  const raw = word.text;
  if (raw === '') return false;
  const pureWildcard = (part: string) => word.glob && /^[.]?[*?]+$/.test(part);
  if (/^~[^/]*(?:\/|$)/.test(raw)) {
    const parts = posix
      .normalize(`/${raw.replace(/^~[^/]*/, '')}`)
      .split('/')
      .filter(Boolean);
    return parts.length <= 1;
  }
  if (raw.startsWith('/')) {
    const parts = posix.normalize(raw).split('/').filter(Boolean);
    if (parts.length <= 1 || SYSTEM_DIRS.has(parts[0]!)) return true;
    // Everything in a top-level folder (`/tmp/*`): other sessions' files, too.
    return parts.length === 2 && pureWildcard(parts[1]!);
  }
  if (!cwd.known) return true;
  const path = posix.normalize(posix.join(cwd.path, raw)).replace(/(.)\/+$/, '$1');
  if (path === '.' || path === '..' || path.startsWith('../')) return true;
  const parts = path.split('/').filter(Boolean);
  // `*`, `.*`, `./*` of the starting folder: everything in it.
  return parts.length === 1 && pureWildcard(parts[0]!);
}

/** A system path (a file there, not only the folder): absolute under a system folder, home's own files, or unknown. */
function isSystemPath(word: ShellWord): boolean {
  if (word.dynamic) return true;
  const raw = word.text;
  if (/^~[^/]*(?:\/|$)/.test(raw))
    return (
      posix
        .normalize(`/${raw.replace(/^~[^/]*/, '')}`)
        .split('/')
        .filter(Boolean).length <= 1
    );
  if (!raw.startsWith('/')) return false;
  const parts = posix.normalize(raw).split('/').filter(Boolean);
  if (parts.length === 0) return true;
  // Under /home (/Users): the homes themselves and their own files (`/home/me/.bashrc`), not a project deep inside.
  if (parts[0] === 'home' || parts[0] === 'Users') return parts.length <= 2 || (parts.length === 3 && parts[2]!.startsWith('.'));
  return SYSTEM_DIRS.has(parts[0]!);
}

const broadTargets = (c: JudgedCommand, skip = 0) =>
  c.extraArgs ||
  operandsOf(c.args)
    .slice(skip)
    .some((a) => isBroadPath(a, c.cwd));

/** `rm`: recursive (or may be, through a word only known at run time) and a broad target. */
function recursiveDelete(c: JudgedCommand): boolean {
  if (c.program !== 'rm') return false;
  const unknown = dynamicOptions(c.args);
  if (recursiveFlag(c, RM_LONG)) return broadTargets(c);
  // `rm $ARGS`: one word may be `-rf /`; `rm "$a" "$b"`: `-r` and `/`. One quoted word alone is one file.
  return (
    unknown.some((w) => w.split) ||
    (unknown.length > 0 &&
      (unknown.length > 1 || c.extraArgs || operandsOf(c.args).some((a) => !a.dynamic && isBroadPath(a, c.cwd))))
  );
}

/**
 * Whether a chmod mode grants something that matters on a system file: write for the group or
 * others, set-user/group-id or sticky, a copy of another class's bits (`o=u`), or a mode that
 * cannot be read (unknown: counts).
 */
function modeGrants(mode: string): boolean {
  if (/^[0-7]{1,4}$/.test(mode)) {
    const digits = mode.padStart(4, '0');
    return (Number(digits[0]) & 6) !== 0 || (Number(digits[2]) & 2) !== 0 || (Number(digits[3]) & 2) !== 0;
  }
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause);
    if (!m) return true;
    const who = m[1]!;
    for (const action of m[2]!.match(/[-+=][rwxXstugo]*/g) ?? []) {
      if (action[0] === '-') continue;
      const perms = action.slice(1);
      if (/[ugo]/.test(perms) || /s/.test(perms)) return true;
      if (/[wt]/.test(perms) && (who === '' || /[goa]/.test(who))) return true;
    }
  }
  return false;
}
/** Others may write: `o+w`, `a+rwx`, `+w` is left to the umask; `777`, `666`, `1777`. */
function worldWritable(mode: string): boolean {
  if (/^[0-7]{1,4}$/.test(mode)) return (Number(mode.slice(-1)) & 2) !== 0;
  return mode.split(',').some((clause) => /^[ugoa]*[oa][ugoa]*(?:[-+=][rwxXst]*)*[+=][rwxXst]*w/.test(clause));
}

function chmodDangerous(c: JudgedCommand): boolean {
  if (c.program !== 'chmod') return false;
  const options = optionsOf(c.args);
  const reference = options.some((o) => isLongOption(o, '--reference', CHMOD_LONG));
  // Modes may start with `-` (`chmod -w f`): they only take away, so skipping them as options is safe.
  const operands = operandsOf(
    c.args.filter((a) => !/^--reference=/.test(a.text)),
    reference ? ['--reference', '--ref', '--refe', '--refer', '--refere', '--referen', '--referenc'] : [],
  );
  const mode = reference ? undefined : operands[0];
  const targets = reference ? operands : operands.slice(1);
  if (recursiveFlag(c, CHMOD_LONG) && mode && (mode.dynamic || worldWritable(mode.text))) return true;
  const system = c.extraArgs || targets.some(isSystemPath);
  return system && (reference || mode === undefined || mode.dynamic || modeGrants(mode.text));
}

function chownDangerous(c: JudgedCommand): boolean {
  if (c.program !== 'chown' && c.program !== 'chgrp') return false;
  const reference = optionsOf(c.args).some((o) => isLongOption(o, '--reference', CHOWN_LONG));
  const operands = operandsOf(
    c.args.filter((a) => !/^--reference=/.test(a.text)),
    reference ? ['--reference', '--from'] : ['--from'],
  );
  const targets = reference ? operands : operands.slice(1);
  if (recursiveFlag(c, CHOWN_LONG) && (c.extraArgs || targets.some((t) => isBroadPath(t, c.cwd)))) return true;
  return c.extraArgs || targets.some(isSystemPath);
}

/** The files a command writes: redirections, and the destinations of the writers that name them. */
function writtenPaths(c: JudgedCommand): ShellWord[] {
  const out = [...c.writes];
  const operands = operandsOf(c.args);
  switch (c.program) {
    case 'tee':
    case 'sponge':
    case 'truncate':
    case 'shred':
      out.push(...operands);
      break;
    case 'dd':
      for (const a of c.args) if (a.text.startsWith('of=')) out.push({ ...a, text: a.text.slice(3) });
      break;
    case 'cp':
    case 'install':
    case 'rsync':
    case 'mv':
    case 'ln': {
      // The destination: the last operand, or `-t DIR` / `--target-directory=DIR`.
      const last = operands.at(-1);
      if (last && operands.length > 1) out.push(last);
      c.args.forEach((a, i) => {
        if (a.text === '-t' && c.args[i + 1]) out.push(c.args[i + 1]!);
        const long = /^--target-directory=(.*)$/s.exec(a.text);
        if (long) out.push({ ...a, text: long[1]! });
      });
      break;
    }
  }
  return out;
}
const normalised = (word: ShellWord) => (word.text.startsWith('/') ? posix.normalize(word.text) : word.text);
const isDevice = (word: ShellWord) => DEVICE.test(normalised(word));

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

const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
]);
function gitSubcommand(args: readonly ShellWord[]): { name: string; rest: ShellWord[]; config: string[] } | undefined {
  const config: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (GIT_VALUE_OPTIONS.has(text)) {
      if (text === '-c' || text === '--config-env') config.push(args[i + 1]?.text ?? '');
      i++;
      continue;
    }
    if (text.startsWith('--config-env=')) config.push(text.slice('--config-env='.length));
    if (text.startsWith('-')) continue;
    return { name: text, rest: args.slice(i + 1), config };
  }
  return undefined;
}
const PUSH_DANGEROUS = ['--force', '--force-with-lease', '--force-if-includes', '--mirror', '--delete', '--prune'];
const PUSH_LONG = [
  ...PUSH_DANGEROUS,
  '--all',
  '--branches',
  '--tags',
  '--follow-tags',
  '--no-follow-tags',
  '--dry-run',
  '--porcelain',
  '--quiet',
  '--verbose',
  '--progress',
  '--no-progress',
  '--set-upstream',
  '--signed',
  '--no-signed',
  '--atomic',
  '--no-atomic',
  '--push-option',
  '--receive-pack',
  '--exec',
  '--repo',
  '--thin',
  '--no-thin',
  '--recurse-submodules',
  '--no-recurse-submodules',
  '--verify',
  '--no-verify',
  '--ipv4',
  '--ipv6',
  '--no-force-with-lease',
  '--no-force-if-includes',
];

function gitForcePush(c: JudgedCommand): boolean {
  if (c.program !== 'git') return false;
  const sub = gitSubcommand(c.args);
  if (!sub) return false;
  // Config that makes a plain push force or mirror (`-c remote.origin.push=+refs/*:refs/*`).
  const forcingConfig = sub.config.some((entry) => /^remote\..*\.(?:push=[+:]|mirror=(?!false))|^push\./i.test(entry));
  if (sub.name !== 'push')
    return sub.name === 'send-pack' && sub.rest.some((a) => a.text === '--force' || a.text.startsWith('+'));
  if (forcingConfig) return true;
  let options = true;
  for (const arg of sub.rest) {
    const text = arg.text;
    if (arg.dynamic) return true; // `git push $FLAGS`, `git push origin "$REF"`: could be `-f` or `+main`
    if (options && text === '--') {
      options = false;
      continue;
    }
    if (options && text.startsWith('--')) {
      const word = text.split('=', 1)[0]!;
      if (PUSH_DANGEROUS.some((name) => isLongOption(word, name, PUSH_LONG)) && !/^--no-/.test(word)) return true;
      continue;
    }
    if (options && /^-[A-Za-z0-9]+$/.test(text)) {
      // `-o VALUE` takes the rest of its cluster as the value.
      const letters = text.slice(1).split('o', 1)[0]!;
      if (/[fd]/.test(letters)) return true;
      continue;
    }
    // Operands: the repository, then refspecs: `+src:dst` forces, `:dst` deletes.
    if (/^[+:]/.test(text) || /^\^?[^:]*:[+]/.test(text)) return true;
  }
  return false;
}

const USER_SELECTORS = [
  '-u',
  '-U',
  '--euid',
  '--uid',
  '-G',
  '--group',
  '-g',
  '--pgroup',
  '-s',
  '--session',
  '-P',
  '--parent',
  '-t',
  '--terminal',
  '--ns',
];
/** A pattern that matches every process name (it matches the empty string). */
function matchesEverything(pattern: string): boolean {
  try {
    return new RegExp(pattern).test('');
  } catch {
    return false;
  }
}
function killAll(c: JudgedCommand): boolean {
  if (c.program === 'killall5') return true;
  if (c.program === 'pkill' || c.program === 'killall') {
    const options = optionsOf(c.args);
    const selectors = c.program === 'killall' ? ['-u', '--user', '-g', '--process-group'] : USER_SELECTORS;
    if (
      options.some(
        (o) =>
          selectors.includes(o.split('=', 1)[0]!) ||
          (c.program === 'pkill' && /^-[A-Za-z]*[uUGgsP]/.test(o) && !o.startsWith('--')),
      )
    )
      return true;
    const patterns = operandsOf(c.args, [
      ...selectors,
      '--signal',
      '-n',
      '-o',
      '--older-than',
      '--younger-than',
      '-F',
      '--pidfile',
      '-O',
      '--older',
      '-y',
    ]);
    return patterns.some(
      (p) => p.dynamic || ['.', '.*', '^', '', '$'].includes(p.text) || (c.program === 'pkill' && matchesEverything(p.text)),
    );
  }
  if (c.program !== 'kill') return false;
  let args = [...c.args];
  const first = args[0]?.text ?? '';
  if (['-l', '-L', '--list', '--table'].includes(first) || first.startsWith('-l')) return false;
  if (first === '-s' || first === '-n' || first === '--signal') args = args.slice(2);
  else if (args.length > 1 && /^-(?:\d+|[A-Za-z]+(?:\+\d+)?|SIG[A-Z]+)$/.test(first)) args = args.slice(1);
  return (
    args
      .filter((a) => a.text !== '--')
      // `$!` is the job just started in the background: a child of this shell, not a guess.
      .some((a) => (a.dynamic && a.param !== '!') || ['-1', '0', '1'].includes(a.text) || /^-\d+$/.test(a.text))
  );
}

const MKFS = /^mkfs(?:\..+)?$|^mk[a-z0-9]*fs(?:\..+)?$/;

export const DANGEROUS_PATTERNS: readonly DangerousPattern[] = [
  {
    key: 'recursive_delete',
    description: 'recursive delete of a broad path',
    matches: (c) => recursiveDelete(c) || (c.program === 'find' && texts(c.args).includes('-delete')),
  },
  {
    key: 'sudo',
    description: 'runs a command as root',
    matches: (c) => ['sudo', 'doas', 'su', 'pkexec', 'runuser'].includes(c.program),
  },
  {
    key: 'world_writable_chmod',
    description: 'makes files world-writable or set-id (recursively, or on a system path)',
    matches: chmodDangerous,
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
    matches: (c) =>
      MKFS.test(c.program) ||
      ['mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'blkdiscard'].includes(c.program),
  },
  {
    key: 'raw_disk_write',
    description: 'writes raw data to a block or memory device',
    matches: (c) =>
      c.program === 'blkdiscard' ||
      writtenPaths(c).some(isDevice) ||
      (c.program === 'shred' && c.args.some((a) => a.text.startsWith('/dev/'))),
  },
  { key: 'fork_bomb', description: 'fork bomb', matches: () => false },
  {
    key: 'system_shutdown',
    description: 'shuts down, reboots or crashes the machine',
    matches: (c) =>
      ['shutdown', 'reboot', 'halt', 'poweroff'].includes(c.program) ||
      (['init', 'telinit'].includes(c.program) && ['0', '6'].includes(c.args[0]?.text ?? '')) ||
      (c.program === 'systemctl' &&
        c.args.some((a) => ['poweroff', 'reboot', 'halt', 'kexec', 'emergency', 'rescue', 'soft-reboot'].includes(a.text))) ||
      writtenPaths(c).some((w) => SHUTDOWN_FILES.has(normalised(w))),
  },
  {
    key: 'recursive_chown_root',
    description: 'changes the owner of a system path (or recursively of a broad one)',
    matches: chownDangerous,
  },
  {
    key: 'git_force_push',
    description: 'force-pushes or deletes remote history',
    matches: gitForcePush,
  },
  {
    key: 'kill_all',
    description: 'kills every process (of the machine, a user, a group, or one only known at run time)',
    matches: killAll,
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
/** Programs that delete what they are given: behind `find -exec`, every path found. */
const DELETERS = new Set(['rm', 'unlink', 'shred', 'rmdir']);

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
  await judgeLine(command, keys, { depth: 0, cwd: WORKSPACE });
  const rows = DANGEROUS_PATTERNS.filter((row) => keys.has(row.key));
  if (rows.length === 0) return undefined;
  return { pattern_key: rows[0]!.key, description: rows[0]!.description, pattern_keys: rows.map((row) => row.key) };
}

/** Where a command is judged: how deep in nested command lines, and the working directory so far (a `cd` changes it for what follows). */
interface Context {
  readonly depth: number;
  cwd: WorkingDirectory;
  /** Judging the command of `find -exec`: it gets every path found. */
  readonly findExec?: boolean;
}

async function judgeLine(source: string, keys: Set<string>, outer: Context): Promise<void> {
  if (outer.depth > MAX_DEPTH) {
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
  if (callsItself(structure.functions)) keys.add('fork_bomb');
  // A nested line (`sh -c`) starts where the outer one is; its own `cd`s stay inside it.
  const ctx: Context = { ...outer, cwd: outer.cwd };
  for (const command of structure.commands) await judgeSimple(command, keys, ctx);
}

/** True when some function defined on the line reaches itself through calls (any name, any path, any wrapper). */
function callsItself(functions: readonly ShellFunction[]): boolean {
  const names = new Set(functions.map((f) => f.name));
  const calls = new Map<string, Set<string>>();
  for (const f of functions) {
    const set = calls.get(f.name) ?? new Set<string>();
    for (const words of f.commands) {
      const called = calledName(words, names);
      if (called !== undefined && names.has(called)) set.add(called);
    }
    calls.set(f.name, set);
  }
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of calls.get(from) ?? []) {
      if (next === target) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, target, seen)) return true;
      }
    }
    return false;
  };
  return [...names].some((name) => reaches(name, name, new Set()));
}

/**
 * The command a simple command runs, behind its wrappers (`nohup f`, `timeout 9 f`, `xargs f`,
 * `eval f`). A function defined on the line shadows a program of its name, wrappers included:
 * with `sg() { …; }` defined, `sg` runs the function, not sg(1) with no command. `command` and
 * `builtin` are the exception: they look the next word up past the functions, so the everyday
 * wrapper `ls() { command ls --color "$@"; }` runs ls(1), not itself (an `eval` behind them
 * looks functions up again).
 */
function calledName(words: readonly ShellWord[], functions: ReadonlySet<string>): string | undefined {
  let rest = [...words];
  let pastFunctions = false;
  for (let hops = 0; hops <= MAX_DEPTH && rest[0]; hops++) {
    const program = programName(rest[0]);
    if (!pastFunctions && functions.has(program)) return program;
    if (program === 'eval') return rest[1]?.text.split(/\s+/)[0];
    const wrapper = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
    if (!wrapper) return pastFunctions ? undefined : program;
    pastFunctions = program === 'command' || program === 'builtin';
    rest = unwrap(wrapper, rest.slice(1)).words;
  }
  return undefined;
}

/** `cd`, `pushd`, `popd`: the working directory for the rest of the line. */
function changeDirectory(program: string, args: readonly ShellWord[], cwd: WorkingDirectory): WorkingDirectory {
  if (program === 'popd') return { known: false };
  const target = operandsOf(args)[0];
  if (
    !target ||
    target.dynamic ||
    target.text === '-' ||
    target.text.startsWith('/') ||
    target.text.startsWith('~') ||
    !cwd.known
  )
    return { known: false };
  return { known: true, path: posix.join(cwd.path, target.text) };
}

async function judgeSimple(command: SimpleCommand, keys: Set<string>, ctx: Context): Promise<void> {
  let words = [...command.words];
  let extraArgs = false;
  let cwd = ctx.cwd;
  const base = { writes: command.writes, ...(command.stdin ? { stdin: command.stdin } : {}) };
  if (words.length === 0) {
    judge({ program: '', args: [], extraArgs, cwd, ...base }, keys);
    return;
  }
  const nested = (): Context => ({ depth: ctx.depth + 1, cwd, ...(ctx.findExec ? { findExec: true } : {}) });
  const judgeText = async (word: ShellWord) => {
    if (word.dynamic) keys.add('dynamic_command');
    else await judgeLine(word.text, keys, nested());
  };
  for (let hops = 0; hops <= MAX_DEPTH; hops++) {
    const head = words[0];
    if (!head) return;
    if (head.dynamic || head.glob) {
      keys.add('dynamic_command');
      return;
    }
    const program = programName(head);
    const args = words.slice(1);
    judge({ program, args, extraArgs, cwd, ...base }, keys);
    if (ctx.findExec && DELETERS.has(program)) keys.add('recursive_delete');

    if (program === 'cd' || program === 'pushd' || program === 'popd') {
      ctx.cwd = changeDirectory(program, args, cwd);
      return;
    }
    if (program === 'eval') {
      if (args.some((a) => a.dynamic)) keys.add('dynamic_command');
      else await judgeLine(texts(args).join(' '), keys, nested());
      return;
    }
    if (program === 'alias') {
      // An alias is a command line used later under another name: judged now.
      for (const arg of args) {
        const at = arg.text.indexOf('=');
        if (at > 0) await judgeText({ ...arg, text: arg.text.slice(at + 1) });
        else if (arg.dynamic) keys.add('dynamic_command');
      }
      return;
    }
    if (program === 'git') {
      const sub = gitSubcommand(args);
      // `git -c alias.x='!rm -rf /' x`, `git config alias.x …`: a command only known at run time.
      if (
        sub?.config.some((entry) => /^alias\./i.test(entry)) ||
        (sub?.name === 'config' && sub.rest.some((a) => /^alias\./i.test(a.text)))
      )
        keys.add('dynamic_command');
      return;
    }
    if (SHELLS.has(program) || ((program === 'busybox' || program === 'toybox') && SHELLS.has(args[0]?.text ?? ''))) {
      const shell = shellInvocation(program === 'busybox' || program === 'toybox' ? args.slice(1) : args);
      if (shell.command) await judgeText(shell.command);
      return;
    }
    if (program === 'find') {
      for (const exec of findExecs(args))
        await judgeSimple({ words: exec, writes: [] }, keys, { depth: ctx.depth + 1, cwd, findExec: true });
      return;
    }
    if (program === 'parallel') {
      await judgeParallel(args, keys, nested());
      return;
    }
    const wrapper = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
    if (!wrapper) return;
    const rest = unwrap(wrapper, args);
    if (rest.lookupOnly) return;
    if (rest.chdir) cwd = { known: false };
    for (const line of rest.shellLines) await judgeText(line);
    if (wrapper.extraArgs) extraArgs = true;
    if (wrapper.wordsAreNotCommand || rest.words.length === 0) return;
    if (wrapper.wordsAreLine) {
      await judgeText({ text: texts(rest.words).join(' '), dynamic: rest.words.some((w) => w.dynamic), glob: false });
      return;
    }
    words = rest.words;
  }
  keys.add('unparseable');
}

/**
 * `parallel [options] COMMAND ::: ARGS`: COMMAND is run by a shell with each argument appended
 * (or put in place of `{}`), so it is judged as a command line whose argument is unknown;
 * with no COMMAND, each argument is itself a command line.
 */
async function judgeParallel(args: readonly ShellWord[], keys: Set<string>, ctx: Context): Promise<void> {
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (PARALLEL_SEPARATORS.has(text) || !text.startsWith('-') || text === '-') break;
    if (PARALLEL_VALUE_OPTIONS.includes(text)) i++;
  }
  const separator = args.findIndex((a, at) => at >= i && PARALLEL_SEPARATORS.has(a.text));
  const commandWords = args.slice(i, separator === -1 ? undefined : separator);
  const inputs = separator === -1 ? [] : args.slice(separator + 1).filter((a) => !PARALLEL_SEPARATORS.has(a.text));
  if (commandWords.length === 0) {
    if (separator === -1) keys.add('dynamic_command'); // the commands come from stdin
    for (const input of inputs) {
      if (input.dynamic) keys.add('dynamic_command');
      else await judgeLine(input.text, keys, ctx);
    }
    return;
  }
  if (commandWords.some((w) => w.dynamic)) {
    keys.add('dynamic_command');
    return;
  }
  const line = texts(commandWords).join(' ');
  const placeholder = /\{[^}]*\}/;
  await judgeLine(placeholder.test(line) ? line.replace(/\{[^}]*\}/g, '"$PARALLEL_ARG"') : `${line} $PARALLEL_ARGS`, keys, ctx);
}

/** The command a wrapper runs: its words after the wrapper's options, settings and positionals. */
function unwrap(
  wrapper: Wrapper,
  args: readonly ShellWord[],
): { words: ShellWord[]; shellLines: ShellWord[]; lookupOnly: boolean; chdir: boolean } {
  const shellLines: ShellWord[] = [];
  let positionals = wrapper.positionals ?? 0;
  let chdir = false;
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '--') {
      i++;
      break;
    }
    if (wrapper.lookupOnly?.includes(text)) return { words: [], shellLines, lookupOnly: true, chdir };
    if (
      wrapper.chdirOptions?.some(
        (option) =>
          text === option ||
          text.startsWith(`${option}=`) ||
          (!option.startsWith('--') && text.startsWith(option) && text.length > option.length),
      )
    )
      chdir = true;
    if (wrapper.shellOptions?.includes(text)) {
      const line = args[i + 1];
      if (line) shellLines.push(line);
      i++;
      continue;
    }
    // `script -qc 'cmd'`: a short cluster ending in a shell option takes the next word.
    const clustered = /^-([A-Za-z]+)$/.exec(text);
    if (
      clustered &&
      wrapper.shellOptions?.some((option) => /^-[A-Za-z]$/.test(option) && clustered[1]!.endsWith(option[1]!)) &&
      clustered[1]!.length > 1
    ) {
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
    // Positionals (a duration, a user, a new root, a lock file, a CPU mask) may sit among the options.
    if (positionals > 0) {
      positionals--;
      continue;
    }
    break;
  }
  // `su user -c …` runs only its -c line; other wrappers run the words left.
  const words = wrapper.shellOptions && shellLines.length > 0 && wrapper !== WRAPPERS.env ? [] : args.slice(i);
  return { words, shellLines, lookupOnly: false, chdir };
}

function judge(command: JudgedCommand, keys: Set<string>): void {
  for (const row of DANGEROUS_PATTERNS) if (row.matches(command)) keys.add(row.key);
}

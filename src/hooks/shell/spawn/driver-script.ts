import { realpathSync } from 'node:fs';
import { basename } from 'node:path';

/*
 * The program a `/bin/sh` driver runs (see shell-driver-pool.ts), and the run file it sources.
 *
 * Protocol, the same for both loops below. The driver's arguments are the stdin file, the stdout
 * and stderr file prefixes and the run file. For run n (1, 2, …) Node writes the payload into the
 * stdin file (in place), the hook's argv into the run file (`runFileText`, rewritten only when it
 * changes), then one newline on the driver's stdin. The hook gets the stdin file on fd 0 and
 * `<prefix>n` on fds 1 and 2 (opened O_APPEND, created by the shell: every run has files of its
 * own, so late output of a grandchild never lands in a later run's). The driver answers `x <$?>`
 * once the hook has exited, or a line starting with `c` when nothing ran (a scratch file is gone):
 * the caller then falls back to Node's spawn. End of input (Node went away) ends the driver.
 *
 * The driver keeps its state in positional parameters and reads requests into a `local` variable:
 * a shell variable it set would reach the hook whenever the environment has one of that name.
 *
 * Two loops, because shells differ in what a run costs. dash (Debian's and Ubuntu's /bin/sh)
 * starts an external simple command with vfork(), which copies nothing of the driver: there the
 * driver runs the hook as a plain command and waits for it (DIRECT). Other shells fork() for it
 * (bash, /bin/sh on Amazon Linux and so on Lambda), so there the driver keeps a subshell forked
 * ahead, its redirections open, blocked reading the next request, and that subshell `exec`s the
 * hook in place (FORK_AHEAD): the fork happens while Node handles the last result, not in the
 * request's path. Measured in docs/performance.md#shell-spawn.
 */

const READ_REQUEST = 'hookgate_request';

// $1 = `c` until the run file (whose first words set it to `x`) has been read with the
// redirections open, $2 = n, $3 = the stdin file, $4/$5 = the stdout/stderr prefixes, $6 = the run file.
const DIRECT =
  `${READ_REQUEST}() { local l; IFS= read -r l; }; set -- c 0 "$@"; ` +
  `while ${READ_REQUEST}; do set -- c $(($2+1)) "$3" "$4" "$5" "$6"; ` +
  '{ command . "$6"; } <"$3" 2>>"$5$2" >>"$4$2"; echo "$1 $?"; done';

// $1 = n, $2 = the stdin file, $3/$4 = the stdout/stderr prefixes, $5 = the run file. The waiting
// subshell has fd 4 = the stdin file, 5/6 = this run's stdout/stderr files and reads the request
// from fd 3; it checks its files are still there (it may have waited for hours), sources the argv
// and `exec`s the hook with fds 0-2 moved onto 4-6. On end of input it kills the driver (`$$`). A
// redirection that fails leaves the brace group unrun: the request is still read and answered `c`.
// The subshell is a foreground one on purpose: an asynchronous list (`&`) would start the hook
// with SIGINT and SIGQUIT ignored.
const FORK_AHEAD =
  `${READ_REQUEST}() { local l; IFS= read -r l; }; exec 3<&0 0</dev/null; set -- 1 "$@"; ` +
  `while :; do ( { ${READ_REQUEST} <&3 || { kill -KILL $$; exit 1; }; ` +
  '[ -f "$3$1" ] && [ -f "$4$1" ] && command . "$5" || { echo c; exit 0; }; ' +
  'exec "$@" <&4 >&5 2>&6 3<&- 4<&- 5>&- 6>&-; } 4<"$2" 5>>"$3$1" 6>>"$4$1"; ' +
  `${READ_REQUEST} <&3 || kill -KILL $$; echo c ); echo "x $?"; set -- $(($1+1)) "$2" "$3" "$4" "$5"; done`;

// In dash a builtin or function takes precedence over a program of that name on PATH: the DIRECT
// loop runs such a hook (`echo`, `printf`, `test`, `kill`, `true`…) with `exec` in a subshell, as
// execvp would. Every builtin of dash 0.5.12 (`type` says "shell builtin" or "special shell
// builtin"), and the driver's own function.
const NOT_ON_PATH = new Set([
  ...(
    '. : [ alias bg break cd chdir command continue echo eval exec exit export false fg getopts hash jobs kill local ' +
    'printf pwd read readonly return set shift test times trap true type ulimit umask unalias unset wait'
  ).split(' '),
  READ_REQUEST,
]);

/** The driver program for one shell, and whether it runs hooks directly (dash) or forks ahead. */
export interface DriverScript {
  readonly text: string;
  readonly direct: boolean;
}

/**
 * The driver loop for the shell `shell` resolves to: DIRECT for dash, FORK_AHEAD for any other.
 *
 * @example
 * const { text } = driverScript('/bin/sh');
 * spawn('/bin/sh', ['-c', text, 'hookgate-driver', inFile, outPrefix, errPrefix, runFile]);
 */
export function driverScript(shell: string): DriverScript {
  let direct = false;
  try {
    direct = basename(realpathSync(shell)).startsWith('dash');
  } catch {
    // unresolvable: the loop that works in every shell
  }
  return { text: direct ? DIRECT : FORK_AHEAD, direct };
}

/**
 * The run file for one argv: what the driver sources once the request has come (see above).
 * FORK_AHEAD: `set -- <argv>` for its `exec "$@"`. DIRECT: the marker, then the command, with
 * the PATH lookup made afresh for a bare name (dash remembers them; execvp does not).
 *
 * @example
 * runFileText(['/hooks/guard.sh', "it's"], false) // "set -- '/hooks/guard.sh' 'it'\\''s'\n"
 */
export function runFileText(argv: readonly string[], direct: boolean): string {
  const words = argv.map(quote).join(' ');
  if (!direct) return `set -- ${words}\n`;
  const program = argv[0] ?? '';
  const bare = !program.includes('/');
  const command = bare && NOT_ON_PATH.has(program) ? `(exec ${words})` : bare ? `hash -r; ${words}` : words;
  return `set -- x "$2" "$3" "$4" "$5" "$6"; ${command}\n`;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

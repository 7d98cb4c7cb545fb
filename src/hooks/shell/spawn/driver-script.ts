/*
 * The program a `/bin/sh` driver runs (see shell-driver-pool.ts), and the run file it sources.
 *
 * Protocol. The driver's arguments are the stdin file, the stdout and stderr file prefixes and
 * the run file. For run n (1, 2, …) Node writes the payload into the stdin file (in place), the
 * hook's argv into the run file (`runFileText`, rewritten only when it changes), then one newline
 * on the driver's stdin. The hook gets the stdin file on fd 0 and `<prefix>n` on fds 1 and 2
 * (opened O_APPEND, created by the shell: every run has files of its own, so late output of a
 * grandchild never lands in a later run's). The driver answers `x <$?>` once the hook has exited,
 * or `c` when nothing ran (a scratch file is gone): the caller then falls back to Node's spawn.
 * End of input (Node went away) ends the driver.
 *
 * The driver keeps its state in positional parameters and reads requests into a `local` variable:
 * a shell variable it set would reach the hook whenever the environment has one of that name.
 *
 * One loop for every shell, the one Lambda's /bin/sh (bash on Amazon Linux) runs: the driver keeps
 * a subshell forked ahead, its redirections open, blocked reading the next request, and that
 * subshell `exec`s the hook in place — execvp's lookup, no builtin or function in the way — so
 * the fork happens while Node handles the last result, not in the request's path. (A second loop
 * for dash, which starts a plain command with vfork, was faster on Debian hosts but is a path
 * Lambda never runs: docs/performance.md#shell-spawn.)
 *
 * $1 = n, $2 = the stdin file, $3/$4 = the stdout/stderr prefixes, $5 = the run file. The waiting
 * subshell has fd 4 = the stdin file, 5/6 = this run's stdout/stderr files and reads the request
 * from fd 3; it checks its files are still there (it may have waited for hours), sources the argv
 * and `exec`s the hook with fds 0-2 moved onto 4-6. On end of input it kills the driver (`$$`). A
 * redirection that fails leaves the brace group unrun: the request is still read and answered `c`.
 * The subshell is a foreground one on purpose: an asynchronous list (`&`) would start the hook
 * with SIGINT and SIGQUIT ignored.
 */

const READ_REQUEST = 'hookgate_request';

/** The driver program, for `/bin/sh -c` (see above). */
export const DRIVER_SCRIPT =
  `${READ_REQUEST}() { local l; IFS= read -r l; }; exec 3<&0 0</dev/null; set -- 1 "$@"; ` +
  `while :; do ( { ${READ_REQUEST} <&3 || { kill -KILL $$; exit 1; }; ` +
  '[ -f "$3$1" ] && [ -f "$4$1" ] && command . "$5" || { echo c; exit 0; }; ' +
  'exec "$@" <&4 >&5 2>&6 3<&- 4<&- 5>&- 6>&-; } 4<"$2" 5>>"$3$1" 6>>"$4$1"; ' +
  `${READ_REQUEST} <&3 || kill -KILL $$; echo c ); echo "x $?"; set -- $(($1+1)) "$2" "$3" "$4" "$5"; done`;

/**
 * The run file for one argv: what the driver's waiting subshell sources once the request has
 * come, setting the argv its `exec "$@"` runs.
 *
 * @example
 * runFileText(['/hooks/guard.sh', "it's"]) // "set -- '/hooks/guard.sh' 'it'\\''s'\n"
 */
export function runFileText(argv: readonly string[]): string {
  return `set -- ${argv.map(quote).join(' ')}\n`;
}

/** What a shell changes in the environment it hands on: sets at start (PWD, bash's SHLVL), resets (IFS), drops (bash: OLDPWD). */
const SHELL_MANAGED = ['PWD', 'OLDPWD', 'SHLVL', 'IFS'] as const;

/** A name a shell can carry in its environment; dash drops any other (`A-B`, `a.b`). */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The lines that give the hook the environment as Node gave it to the driver, appended to the
 * run file: the variables a shell manages, each put back as it was or unset (§3.5: every other
 * variable is passed unchanged). Undefined when the environment holds a name no shell carries:
 * the run then takes Node's spawn. (bash never exports `_`; the reference's would be a
 * leftover of whatever started hookgate.)
 *
 * @example
 * environmentFixup({ PATH: '/bin', PWD: '/srv' }) // "unset OLDPWD SHLVL IFS; export PWD='/srv'\n"
 */
export function environmentFixup(env: Readonly<Record<string, string>>): string | undefined {
  for (const name in env) if (!SHELL_NAME.test(name)) return undefined;
  const unset = SHELL_MANAGED.filter((name) => env[name] === undefined);
  const kept = SHELL_MANAGED.filter((name) => env[name] !== undefined).map((name) => `${name}=${quote(env[name]!)}`);
  return `${unset.length > 0 ? `unset ${unset.join(' ')}` : ':'}${kept.length > 0 ? `; export ${kept.join(' ')}` : ''}\n`;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

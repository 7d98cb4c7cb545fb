import { homedir, userInfo } from 'node:os';
import { userHome } from './user-home.ts';
import { UnparseableCommandError } from './shell-errors.ts';

/**
 * Splits a command line into words with POSIX shell quoting (hook-semantics §3.5 step 2),
 * like Python's `shlex.split`. Written here because the `shell-quote` package does not fit:
 * it expands `$VAR`, treats `#` as a comment and `|`/`>` as operators, and silently accepts
 * unterminated quotes — every one of which the spec forbids.
 *
 * Throws {@link UnparseableCommandError} on an unterminated quote or a trailing backslash.
 *
 * @example
 * splitShellWords(`python3 -c 'print(1)' "a\\"b" x#y`) // ['python3', '-c', 'print(1)', 'a"b', 'x#y']
 */
export function splitShellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = command.length;
  while (i < n) {
    const ch = command[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new UnparseableCommandError(command, 'No closing quotation');
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      inWord = true;
      i++;
      let closed = false;
      while (i < n) {
        const c = command[i]!;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        // Inside double quotes a backslash escapes only `"` and `\`; any other is kept.
        if (c === '\\' && i + 1 < n && (command[i + 1] === '"' || command[i + 1] === '\\')) {
          word += command[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      if (!closed) throw new UnparseableCommandError(command, 'No closing quotation');
    } else if (ch === '\\') {
      if (i + 1 >= n) throw new UnparseableCommandError(command, 'No escaped character');
      word += command[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Expands a `~` only when the whole command starts with one (§3.5): `~`/`~/…` from `HOME`
 * (else the OS home), `~user/…` when that user can be resolved (only the current user can be,
 * without a passwd lookup library), otherwise left as-is.
 *
 * @example
 * expandLeadingTilde('~/hooks/a.sh', { HOME: '/home/u' }) // '/home/u/hooks/a.sh'
 */
export function expandLeadingTilde(command: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!command.startsWith('~')) return command;
  const slash = command.indexOf('/');
  const user = slash < 0 ? command.slice(1) : command.slice(1, slash);
  const rest = slash < 0 ? '' : command.slice(slash);
  if (user === '') {
    const home = env.HOME !== undefined ? env.HOME : safeHomedir();
    // As Python's expanduser: a trailing slash of the home is dropped, an empty result is `/`.
    return home === undefined ? command : home.replace(/\/+$/, '') + rest || '/';
  }
  const info = safeUserInfo();
  const home = info && info.username === user && info.homedir ? info.homedir : userHome(user);
  return home === undefined ? command : home.replace(/\/+$/, '') + rest || '/';
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

function safeUserInfo(): { username: string; homedir: string } | undefined {
  try {
    return userInfo();
  } catch {
    return undefined;
  }
}

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { scriptFile } from '../consent/script-path.ts';
import { splitShellWords } from '../spawn/shell-words.ts';

/**
 * Programs a shell hook may expect that the AWS Lambda `nodejs22.x` runtime (Amazon Linux
 * 2023, minimal) does not have on PATH. It does have `sh`, `bash`, coreutils, `grep`,
 * `sed`, `awk` and the runtime's own `node`. Hooks deployed with the stack run there.
 */
export const MISSING_IN_LAMBDA = [
  'python',
  'python3',
  'pip',
  'pip3',
  'jq',
  'ruby',
  'php',
  'git',
  'deno',
  'bun',
  'zsh',
  'fish',
] as const;

const MISSING = new Set<string>(MISSING_IN_LAMBDA);
/** A word used as a command in a script: at line start or after a pipe, `;`, `&&`, `$(`. */
const COMMAND_USE = new RegExp(`(?:^|[|;&(]|\\$\\()\\s*(${MISSING_IN_LAMBDA.join('|')})(?=\\s|$)`, 'gm');

/**
 * The programs a configured command needs that the Lambda runtime lacks: its interpreter
 * (`python3 hook.py`, `/usr/bin/env python3 …`), the script's shebang, and commands a shell
 * script calls (`… | jq .`). A heuristic for `hookgate hooks doctor`, never used to decide
 * whether a hook runs.
 *
 * @example
 * lambdaMissingPrograms('python3 /hooks/guard.py') // ['python3']
 */
export function lambdaMissingPrograms(command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  let words: string[] = [];
  try {
    words = splitShellWords(command);
  } catch {
    return [];
  }
  const program = interpreterOf(words);
  if (program && MISSING.has(program)) found.add(program);
  let text = '';
  try {
    text = readFileSync(scriptFile(command, env), 'utf8').slice(0, 256 * 1024);
  } catch {
    // no readable script: only the command line tells
  }
  const shebang = /^#!\s*(\S+)(?:[ \t]+(\S+))?/.exec(text);
  if (shebang) {
    const interpreter = interpreterOf([shebang[1]!, ...(shebang[2] ? [shebang[2]] : [])]);
    if (interpreter && MISSING.has(interpreter)) found.add(interpreter);
  }
  const isShellScript = !shebang || /\/(?:ba|da)?sh$/.test(shebang[1]!) || shebang[2] === 'sh' || shebang[2] === 'bash';
  if (isShellScript && text) {
    const body = text.replace(/^\s*#.*$/gm, ''); // comments do not run
    for (const match of body.matchAll(COMMAND_USE)) found.add(match[1]!);
  }
  return [...found].sort();
}

/** `python3` for `python3 x.py`, `/usr/bin/python3 …` and `/usr/bin/env -S python3 …`. */
function interpreterOf(words: readonly string[]): string | undefined {
  const first = words[0];
  if (first === undefined) return undefined;
  if (basename(first) !== 'env') return basename(first);
  return words.slice(1).find((w) => !w.startsWith('-') && !w.includes('='));
}

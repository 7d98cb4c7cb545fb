import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

/** The shells whose `-n` (read, do not run) check `hookgate hooks doctor` runs. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

/**
 * The shell a script runs under, from its `#!` line (`#!/bin/bash`, `#!/usr/bin/env bash`),
 * else from its extension (`.sh` → sh, `.bash` → bash); undefined for anything else.
 *
 * @example
 * scriptShellOf('#!/usr/bin/env bash\necho hi\n', 'x.sh'); // 'bash'
 */
export function scriptShellOf(text: string, path: string): string | undefined {
  const shebang = /^#!\s*(\S+)(?:[ \t]+(\S+))?/.exec(text);
  if (shebang) {
    const program = basename(shebang[1]!);
    const shell = program === 'env' ? shebang[2] : program;
    return shell !== undefined && SHELLS.has(shell) ? shell : undefined;
  }
  if (path.endsWith('.bash')) return 'bash';
  if (path.endsWith('.sh')) return 'sh';
  return undefined;
}

/**
 * Checks a shell script's syntax without running it (`<shell> -n <path>`): a syntax error
 * makes bash exit 2, which a hook's caller would otherwise read as a block. Undefined when
 * the file is not a shell script, or that shell is not installed.
 *
 * @example
 * const checked = await checkScriptSyntax('/home/me/.hermes/agent-hooks/guard.sh');
 * if (checked && !checked.ok) console.log(checked.stderr);
 */
export async function checkScriptSyntax(path: string): Promise<{ shell: string; ok: boolean; stderr: string } | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const shell = scriptShellOf(text, path);
  if (!shell) return undefined;
  return new Promise((resolve) => {
    execFile(shell, ['-n', path], { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(undefined);
      resolve({ shell, ok: !error, stderr: String(stderr).trim() });
    });
  });
}

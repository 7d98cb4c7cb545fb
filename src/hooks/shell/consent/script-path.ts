import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatIsoMicros, nanosToMicros } from './iso-timestamp.ts';
import { expandLeadingTilde, splitShellWords } from '../spawn/shell-words.ts';

const SCRIPT_SUFFIXES = ['.sh', '.bash', '.zsh', '.fish', '.py', '.pyw', '.rb', '.pl', '.lua', '.js', '.mjs', '.cjs', '.ts'];

/**
 * The script a command runs (hook-semantics §3.10), for the mtime record, the fingerprint and
 * `doctor`'s executable check — never used to spawn.
 *
 * @example
 * resolveScriptPath('/usr/bin/env python3 /path/hook.py') // '/path/hook.py'
 * resolveScriptPath('my-binary --verbose') // 'my-binary'
 */
export function resolveScriptPath(command: string): string {
  let words: string[];
  try {
    words = splitShellWords(command);
  } catch {
    return command;
  }
  if (words.length === 0) return command;
  const bySuffix = words.find((w) => SCRIPT_SUFFIXES.some((s) => w.toLowerCase().endsWith(s)));
  if (bySuffix !== undefined) return bySuffix;
  return words.find((w) => w.includes('/') || w.startsWith('~')) ?? words[0]!;
}

/** The resolved script with `~` expanded and made absolute against the cwd (no PATH search). */
export function scriptFile(command: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = resolveScriptPath(command);
  return path === '' ? '' : resolve(expandLeadingTilde(path, env));
}

/** The script's mtime in the allowlist form, rounded to microseconds; `null` if unreadable. */
export function scriptMtime(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (resolveScriptPath(command) === '') return null;
  try {
    return formatIsoMicros(nanosToMicros(statSync(scriptFile(command, env), { bigint: true }).mtimeNs));
  } catch {
    return null;
  }
}

/** Lower-case hex SHA-256 of the script's bytes (§5.5); `null` unless a readable regular file. */
export function scriptSha256(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (resolveScriptPath(command) === '') return null;
  try {
    const file = scriptFile(command, env);
    if (!statSync(file).isFile()) return null;
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/** §3.10 executable check: runnable as configured (bare invocation needs +x, an interpreter +r). */
export function isRunnableAsConfigured(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const path = resolveScriptPath(command);
  if (path === '') return false;
  let words: string[];
  try {
    words = splitShellWords(command);
  } catch {
    return false;
  }
  const file = scriptFile(command, env);
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, words[0] === path ? constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

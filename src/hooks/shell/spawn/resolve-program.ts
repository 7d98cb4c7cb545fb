import { accessSync, closeSync, constants, openSync, readSync, statSync, type Stats } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds the file `execvp` would run for `program` and says whether it is a plain case the
 * fast spawner can take: an executable regular file starting with `#!` or an ELF header.
 * Anything else (missing, not executable, no magic → ENOEXEC) returns `undefined`, and the
 * run goes through Node's `spawn`, whose errors are the exact ones (§3.5 step 4).
 *
 * @example
 * findPlainExecutable('sh', process.env.PATH) // '/usr/bin/sh'
 */
export function findPlainExecutable(program: string, pathVariable: string | undefined, cwd: string): string | undefined {
  // One stat per call on the hot path: the last answer for this (program, PATH, cwd) stands
  // while the file's identity (inode, size, mtime, mode) is unchanged.
  const key = `${program}\0${pathVariable}\0${cwd}`;
  const cached = answers.get(key);
  if (cached) {
    const stat = statQuietly(cached.path);
    if (stat && sameFile(stat, cached.stat)) return cached.path;
    answers.delete(key); // changed or gone: look again
  }
  const found = search(program, pathVariable, cwd);
  if (found !== undefined) {
    const stat = statQuietly(found);
    if (stat) {
      if (answers.size > 256) answers.clear();
      answers.set(key, { path: found, stat });
    } // else raced with a removal: not cached
  }
  return found;
}

function statQuietly(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // not a directory on the way, no access…
  }
}

const answers = new Map<string, { path: string; stat: Stats }>();

/** The same file, unchanged: inode, size, mtime and mode (compared as numbers, no string built). */
function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.mode === b.mode;
}

function search(program: string, pathVariable: string | undefined, cwd: string): string | undefined {
  const file = firstExecutable(program, pathVariable, cwd);
  return file !== undefined && startsLikeAProgram(file) ? file : undefined;
}

/**
 * The file `execvp` would hand to `execve` for `program`: the path itself when it has a `/`,
 * else the first executable regular file on `PATH` (an empty entry is `cwd`).
 *
 * @example
 * firstExecutable('sh', '/usr/bin:/bin', '/') // '/usr/bin/sh'
 */
export function firstExecutable(program: string, pathVariable: string | undefined, cwd: string): string | undefined {
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    return isExecutableFile(path) ? path : undefined;
  }
  if (pathVariable === undefined) return undefined;
  for (const dir of pathVariable.split(delimiter)) {
    const candidate = join(dir === '' ? cwd : resolve(cwd, dir), program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `execve` can run `path` itself: it starts with `#!` or an ELF header. Anything else
 * fails with ENOEXEC, where the reference reports "Exec format error" (`execvp` in libc, and so
 * Node's `spawn`, would run it with `/bin/sh` instead: §3.5 says there is never a shell).
 *
 * @example
 * startsLikeAProgram('/usr/bin/env') // true
 */
export function startsLikeAProgram(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    const shebang = n >= 2 && head[0] === 0x23 && head[1] === 0x21;
    const elf = n === 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46;
    return shebang || elf;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

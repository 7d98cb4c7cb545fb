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
  if (program.includes('/')) return plain(isAbsolute(program) ? program : resolve(cwd, program));
  if (pathVariable === undefined) return undefined;
  for (const dir of pathVariable.split(delimiter)) {
    const candidate = join(dir === '' ? cwd : resolve(cwd, dir), program);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    return plain(candidate);
  }
  return undefined;
}

function plain(path: string): string | undefined {
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return undefined;
    accessSync(path, constants.X_OK);
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    const shebang = n >= 2 && head[0] === 0x23 && head[1] === 0x21;
    const elf = n === 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46;
    return shebang || elf ? path : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

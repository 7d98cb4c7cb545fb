import { constants } from 'node:fs';
import { mkdir, open, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SandboxError } from './tool-sandbox.ts';

/** Never reachable through the file tools unless a root names them (or a path inside them). */
/** Where the file tools may go besides the workspace (the operator's `files.allowed_roots`, and the hooks home to keep out). */
export interface FileBoundary {
  readonly allowedRoots: readonly string[];
  /** Never reachable unless a root names it (or a path inside it). */
  readonly hooksHome?: string;
}

export const PROTECTED_DIRECTORIES: readonly string[] = ['/proc', '/sys', '/etc'];

/**
 * Where a file tool may go (hook-semantics §5.8, docs/security.md): `path` (relative = in
 * the workspace) is resolved lexically, then the longest prefix that exists is resolved
 * through its symlinks (realpath), and the result must lie inside the workspace or one of
 * `policy.allowedRoots`. `/proc`, `/sys`, `/etc` and the hooks home are refused even inside an
 * allowed root, unless that root is the protected directory itself or lies inside it.
 * Answers the resolved path, which is what the tool must open (not the path it was given).
 * Anything else is a `SandboxError` the model sees.
 *
 * @example
 * await resolveToolPath('notes.txt', '/tmp/ws/s1', DEFAULT_TOOL_POLICY) // '/tmp/ws/s1/notes.txt'
 * await resolveToolPath('../../../../etc/passwd', '/tmp/ws/s1', DEFAULT_TOOL_POLICY) // throws SandboxError
 */
export async function resolveToolPath(path: unknown, workspace: string, policy: FileBoundary): Promise<string> {
  if (typeof path !== 'string' || path.trim() === '') throw new SandboxError('a non-empty "path" string is required');
  if (path.includes('\0')) throw new SandboxError('the path contains a NUL character');
  const target = await realPrefix(isAbsolute(path) ? resolve(path) : resolve(workspace, path));
  const roots = await Promise.all([workspace, ...policy.allowedRoots].map(realPrefix));
  const protectedDirs = await Promise.all(
    [...PROTECTED_DIRECTORIES, ...(policy.hooksHome ? [policy.hooksHome] : [])].map(realPrefix),
  );
  const allowed = roots.some(
    (root) =>
      isInside(target, root) && !protectedDirs.some((dir) => isInside(target, dir) && isInside(dir, root) && dir !== root),
  );
  if (!allowed) {
    throw new SandboxError(
      `${path} is outside the files this tool may use (the session workspace` +
        `${policy.allowedRoots.length > 0 ? ` and files.allowed_roots` : ''}); nothing was read or written`,
    );
  }
  return target;
}

/** `child` is `parent` or lies under it (both absolute and normalised). */
function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** realpath of the longest existing prefix of an absolute, normalised path, plus the rest. */
async function realPrefix(absolute: string): Promise<string> {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = dirname(current);
      // ENOENT: not there yet (a file about to be written); ENOTDIR: a file in the middle.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current)
        return rest.length === 0 ? current : join(current, ...rest.reverse());
      rest.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Reads a path `resolveToolPath` answered: opened with O_NOFOLLOW (a symlink swapped in
 * since the check is refused, not followed) and only when it is a regular file (a FIFO
 * would hang the tool, a device could be endless).
 *
 * @example
 * const text = await readToolFile(await resolveToolPath('notes.txt', workspace, policy));
 */
export async function readToolFile(resolved: string): Promise<string> {
  const handle = await open(resolved, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new SandboxError(`${resolved} is not a regular file`);
    refuseHardLinked(resolved, stat.nlink);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A file with more than one name may be a hard link a command made to a file outside the
 * workspace (`ln /outside/file x`): the path check cannot tell, so the file tools refuse it.
 * (Inside bubblewrap such a link cannot be made at all; this guards `terminal.sandbox: none`
 * and the Lambda tools function.)
 */
function refuseHardLinked(resolved: string, links: number): void {
  if (links > 1)
    throw new SandboxError(
      `${resolved} has ${links} hard links; the file tools refuse hard-linked files (one of its names may be outside the workspace)`,
    );
}

/**
 * Writes a path `resolveToolPath` answered (parents created), opened with O_NOFOLLOW.
 *
 * @example
 * await writeToolFile(await resolveToolPath('out/notes.txt', workspace, policy), 'text');
 */
export async function writeToolFile(resolved: string, content: string): Promise<void> {
  await mkdir(dirname(resolved), { recursive: true });
  // Truncated only once it is known not to be another name of a file elsewhere.
  const handle = await open(
    resolved,
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o644,
  );
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new SandboxError(`${resolved} is not a regular file`);
    refuseHardLinked(resolved, stat.nlink);
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

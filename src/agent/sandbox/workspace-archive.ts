import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { create as packTar, extract as unpackTar, type ReadEntry } from 'tar';
import { SandboxError } from './tool-sandbox.ts';
import { MAX_WORKSPACE_ARCHIVE_BYTES, MAX_WORKSPACE_ENTRIES, MAX_WORKSPACE_UNPACKED_BYTES } from './tools-function-protocol.ts';
import { errorText } from '../../errors/error-text.ts';

/** How big a workspace may get (defaults: tools-function-protocol.ts, documented in docs/deploy.md). */
export interface WorkspaceLimits {
  archiveBytes: number;
  unpackedBytes: number;
  entries: number;
}

export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = {
  archiveBytes: MAX_WORKSPACE_ARCHIVE_BYTES,
  unpackedBytes: MAX_WORKSPACE_UNPACKED_BYTES,
  entries: MAX_WORKSPACE_ENTRIES,
};

/** What a workspace holds, in one hash (paths, types, sizes, modes, mtimes), with its totals. */
export interface WorkspaceFingerprint {
  hash: string;
  bytes: number;
  entries: number;
}

/**
 * Walks `dir` without following symlinks: a hash that changes when anything in it does (so an
 * unchanged workspace is not uploaded again), and the totals the caps are checked on.
 *
 * @example
 * const before = await fingerprintWorkspace('/tmp/ws'); // … run a command …
 * const changed = (await fingerprintWorkspace('/tmp/ws')).hash !== before.hash;
 */
export async function fingerprintWorkspace(dir: string): Promise<WorkspaceFingerprint> {
  const hash = createHash('sha256');
  let bytes = 0;
  let entries = 0;
  const entriesOf = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const lines: string[] = [];
  for (const entry of entriesOf) {
    const path = join(entry.parentPath, entry.name);
    const stat = await lstat(path).catch(() => undefined);
    if (!stat) continue;
    entries += 1;
    if (stat.isFile()) bytes += stat.size;
    lines.push(`${relative(dir, path)}\0${stat.mode}\0${stat.size}\0${stat.mtimeMs}`);
  }
  for (const line of lines.sort()) hash.update(line).update('\n');
  return { hash: hash.digest('hex'), bytes, entries };
}

/**
 * Packs `dir` into a gzip'd tar (symlinks stored as links, never followed), refusing a
 * workspace over `limits` with a `SandboxError` the model sees, so nothing is saved that
 * could not be restored.
 *
 * @example
 * const archive = await packWorkspace('/tmp/ws'); // Buffer, ready to PUT
 */
export async function packWorkspace(
  dir: string,
  limits: WorkspaceLimits = DEFAULT_WORKSPACE_LIMITS,
  print?: WorkspaceFingerprint,
): Promise<Buffer> {
  const fingerprint = print ?? (await fingerprintWorkspace(dir));
  if (fingerprint.bytes > limits.unpackedBytes)
    throw overCap(`its files add up to ${mib(fingerprint.bytes)}`, `${mib(limits.unpackedBytes)} of files`);
  if (fingerprint.entries > limits.entries)
    throw overCap(`it holds ${fingerprint.entries} files and folders`, `${limits.entries} entries`);
  const chunks: Buffer[] = [];
  await pipeline(
    packTar({ gzip: true, cwd: dir, portable: true, follow: false }, ['.']),
    byteLimit(limits.archiveBytes, (seen) =>
      overCap(`its archive is over ${mib(seen)}`, `a ${mib(limits.archiveBytes)} archive`),
    ),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    },
  );
  return Buffer.concat(chunks);
}

/** Entry types a workspace may hold; devices, FIFOs and the rest are dropped on unpacking. */
const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/**
 * Empties `dir` and unpacks a gzip'd tar stream into it, safely for an archive a chat user
 * may have written (the PUT URL of their own workspace is visible inside the sandbox):
 * - node-tar (not `preservePaths`) strips absolute paths, skips `..` paths and link targets that
 *   leave `dir`, and never writes through a symlink;
 * - hard links must name a relative target inside the archive; devices, FIFOs and other types are
 *   dropped; owners are not restored (`preserveOwner: false`, even as root);
 * - the compressed and the unpacked bytes are counted as they stream, so an oversized archive
 *   or a gzip bomb stops at the cap with a `SandboxError`, as do too many entries.
 *
 * @example
 * await unpackWorkspace('/tmp/ws', Readable.fromWeb(response.body));
 */
export async function unpackWorkspace(
  dir: string,
  archive: Readable,
  limits: WorkspaceLimits = DEFAULT_WORKSPACE_LIMITS,
): Promise<void> {
  await emptyWorkspace(dir);
  let entries = 0;
  let refused: SandboxError | undefined;
  const filter = (path: string, entry: unknown): boolean => {
    const read = entry as ReadEntry;
    entries += 1;
    if (entries > limits.entries)
      refused ??= overCap(`the saved archive holds over ${limits.entries} entries`, `${limits.entries} entries`);
    if (refused) return false;
    if (!ALLOWED_TYPES.has(read.type)) return false;
    if (read.type === 'Link') {
      const target = String(read.linkpath ?? '');
      if (target === '' || posix.isAbsolute(target) || target.split('/').includes('..')) return false;
    }
    return !path.split('/').includes('..');
  };
  try {
    await pipeline(
      archive,
      byteLimit(limits.archiveBytes, (seen) =>
        overCap(`the saved archive is over ${mib(seen)}`, `a ${mib(limits.archiveBytes)} archive`),
      ),
      createGunzip(),
      byteLimit(limits.unpackedBytes + 1024 * 1024, (seen) =>
        overCap(`the saved archive unpacks to over ${mib(seen)}`, `${mib(limits.unpackedBytes)} of files`),
      ),
      unpackTar({ cwd: dir, filter, preserveOwner: false, preservePaths: false, noChmod: false }),
    );
  } catch (error) {
    await emptyWorkspace(dir);
    if (error instanceof SandboxError) throw error;
    throw new SandboxError(
      `the saved workspace could not be unpacked (${errorText(error)}); nothing was run (/new starts a session with a new workspace)`,
    );
  }
  if (refused) {
    await emptyWorkspace(dir);
    throw refused;
  }
}

/**
 * Leaves `dir` an empty directory (a new session's workspace, or one whose archive failed).
 *
 * @example
 * await emptyWorkspace('/tmp/ws');
 */
export async function emptyWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/** A pass-through that fails with `error(bytesSeen)` once more than `max` bytes went through. */
function byteLimit(max: number, error: (seen: number) => SandboxError): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(error(seen));
      else callback(null, chunk);
    },
  });
}

function overCap(what: string, cap: string): SandboxError {
  return new SandboxError(
    `the session workspace is too big to keep: ${what}, over the cap of ${cap}; delete files from it (this call's changes were not saved)`,
  );
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

import { spawnSync } from 'node:child_process';
import { chownSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { applyPatch } from './apply-patch.ts';
import {
  bubblewrapArgs,
  isInsidePath,
  SANDBOX_WORKSPACE,
  sandboxEtcFiles,
  type BubblewrapLayout,
  type SystemEntry,
} from './bubblewrap-args.ts';
import { runProcess, type ProcessRun } from './run-command.ts';
import { terminalEnvironment } from './terminal-environment.ts';
import {
  SandboxError,
  type SandboxRequest,
  type SandboxResults,
  type SandboxResultOf,
  type ToolSandbox,
} from './tool-sandbox.ts';
import { workspaceDir } from './workspace-dir.ts';
import { sandboxSeccompFilter } from './seccomp-filter.ts';

/** The host user the sandbox runs as when hookgate runs as root ("nobody"): see `sandboxUser`. */
export const SANDBOX_UID_WHEN_ROOT = 65534;

/** How long a file tool's request may take inside the sandbox (a FIFO swapped in would otherwise hang it). */
const FILE_OP_TIMEOUT_SECONDS = 30;
/** `patch` reads the whole file; past this it refuses rather than hold it in memory. */
const PATCH_MAX_BYTES = 4 * 1024 * 1024;

export interface BubblewrapSandboxOptions {
  /** Session workspaces live under it (`<root>/<session id>`), each bound at `/workspace`. */
  workspaceRoot: string;
  /** `terminal.env_passthrough`: variables passed besides the terminal allowlist. */
  envPassthrough?: readonly string[];
  /** `files.allowed_roots`: bound read-only at the same path. */
  allowedRoots?: readonly string[];
  /** Hidden under an empty tmpfs where an allowed root holds them: the hooks home, the state folder, the repository. */
  hidden?: readonly string[];
  /** `terminal.network`: `none` (default, a network namespace with loopback only) or `host`. */
  network?: 'none' | 'host';
  /** The bwrap program (default: found on PATH). */
  bwrap?: string;
}

/**
 * The host user and group bwrap runs as. As root, "nobody" (65534): a user namespace made by
 * root maps to host root, whose processes RLIMIT_NPROC never limits (a fork bomb would), and
 * whose bound files it could read whatever their mode. Otherwise the operator's own user.
 */
export function sandboxUser(): { uid: number; gid: number } | undefined {
  return process.getuid?.() === 0 ? { uid: SANDBOX_UID_WHEN_ROOT, gid: SANDBOX_UID_WHEN_ROOT } : undefined;
}

/** The bwrap program on PATH, or undefined. */
export function findBubblewrap(path: string = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...path.split(delimiter), '/usr/bin', '/bin']) {
    if (!dir) continue;
    const file = resolve(dir, 'bwrap');
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The host's `/bin`, `/sbin`, `/lib*`: merged-usr symlinks are recreated, real directories bound read-only. */
export function hostSystemEntries(): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const path of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.push({ path, symlink: readlinkSync(path) });
      else if (stat.isDirectory()) entries.push({ path });
    } catch {
      // absent on this host
    }
  }
  return entries;
}

/**
 * The sandbox's environment (also bwrap's own: bwrap is PID 1 inside, and its
 * `/proc/1/environ` is readable there): the terminal environment of hook-semantics §5.8 with
 * HOME `/workspace`, TMPDIR `/tmp` and PATH cut to the directories that exist inside.
 *
 * @example
 * sandboxEnvironment([], { PATH: '/root/.cargo/bin:/usr/bin', HOME: '/root', AWS_SECRET_ACCESS_KEY: 'x' })
 * // { PATH: '/usr/bin', HOME: '/workspace', TMPDIR: '/tmp' }
 */
export function sandboxEnvironment(
  passthrough: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  roots: readonly string[] = [],
): NodeJS.ProcessEnv {
  const out = terminalEnvironment(passthrough, env);
  const visible = ['/usr', '/bin', '/sbin', ...roots];
  const path = (out.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir.startsWith('/') && visible.some((root) => isInsidePath(resolve(dir), root)));
  out.PATH = path.length > 0 ? [...new Set(path)].join(delimiter) : '/usr/local/bin:/usr/bin:/bin';
  out.HOME = SANDBOX_WORKSPACE;
  out.TMPDIR = '/tmp';
  return out;
}

/**
 * `terminal.sandbox: bwrap` (hook-semantics §5.9, docs/security.md): each request — a command,
 * and the file tools' read, write and patch too — runs in a fresh bubblewrap sandbox whose only
 * writable path is the session's workspace at `/workspace`. What the file tools reach is what
 * the sandbox sees: a symlink planted by a command resolves inside it, and a hard link to a
 * file outside the workspace cannot be made there (every other path is another mount: EXDEV).
 *
 * @example
 * const sandbox = createBubblewrapSandbox({ workspaceRoot: '/tmp/hookgate-workspaces' });
 * await sandbox.run({ sessionId: 's1' }, { op: 'exec', command: 'ls', timeoutSeconds: 60 });
 */
export function createBubblewrapSandbox(options: BubblewrapSandboxOptions): ToolSandbox {
  const bwrap = options.bwrap ?? findBubblewrap() ?? 'bwrap';
  const user = sandboxUser();
  const etc = sandboxEtcFiles(user?.uid ?? process.getuid?.() ?? 1000, user?.gid ?? process.getgid?.() ?? 1000);
  // As root the sandbox's user binds the roots: one it cannot reach would fail every call, so it is left out (the selection says so).
  const roots = (options.allowedRoots ?? [])
    .map((root) => resolve(root))
    .filter((root) => !user || unsearchableAncestor(root, user.uid) === undefined);
  const env = sandboxEnvironment(options.envPassthrough ?? [], process.env, roots);
  const system = hostSystemEntries();
  const limitTmpfs = supportsSizedTmpfs(bwrap);
  const seccomp = sandboxSeccompFilter();
  const inputs = [etc.passwd, etc.group, etc.hosts, ...(seccomp ? [seccomp] : [])];

  const call = async (
    sessionId: string,
    argv: string[],
    extra: { stdin?: string; timeoutSeconds: number; signal?: AbortSignal },
  ): Promise<ProcessRun> => {
    const workspace = prepareWorkspace(options.workspaceRoot, sessionId, user);
    const layout: BubblewrapLayout = {
      workspace,
      network: options.network ?? 'none',
      system,
      readOnlyRoots: roots,
      // Its own workspace root too: an allowed root above it would show every session's workspace by path.
      hidden: hiddenInSandbox(existingDirectories([options.workspaceRoot, ...(options.hidden ?? [])]), roots),
      generatedEtc: ['passwd', 'group', 'hosts'],
      // The three `--ro-bind-data` inputs are fds 3, 4 and 5, the filter 6; the status fd comes after them.
      ...(seccomp ? { seccompFd: 6 } : {}),
      statusFd: 3 + inputs.length,
      ...(limitTmpfs ? { tmpfsLimits: true } : {}),
    };
    const run = await runProcess({
      file: bwrap,
      args: bubblewrapArgs(layout, argv),
      env,
      ...(user ?? {}),
      inputs,
      collectFd: true,
      timeoutSeconds: extra.timeoutSeconds,
      ...(extra.stdin !== undefined ? { stdin: extra.stdin } : {}),
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
    // bwrap reports the child's pid on the status fd once it started it; without that line the sandbox itself failed.
    if (!run.timedOut && !(run.fdOutput ?? '').includes('child-pid')) {
      throw new SandboxError(
        `the sandbox could not start: ${firstLine(run.stderr.toString('utf8')) || `bwrap exited with ${run.exitCode}`}`,
      );
    }
    return run;
  };

  const readFile = async (sessionId: string, path: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> => {
    const run = await call(sessionId, ['/bin/sh', '-c', READ_SCRIPT, 'read', path, String(maxBytes)], {
      timeoutSeconds: FILE_OP_TIMEOUT_SECONDS,
      ...(signal ? { signal } : {}),
    });
    if (run.exitCode === 0) return run.stdout;
    throw new SandboxError(fileOpError(path, run, 'read'));
  };

  const writeFile = async (sessionId: string, path: string, content: string, signal?: AbortSignal): Promise<void> => {
    const run = await call(sessionId, ['/bin/sh', '-c', WRITE_SCRIPT, 'write', path], {
      stdin: content,
      timeoutSeconds: FILE_OP_TIMEOUT_SECONDS,
      ...(signal ? { signal } : {}),
    });
    if (run.exitCode !== 0) throw new SandboxError(fileOpError(path, run, 'write'));
  };

  const dispatch = async (
    sessionId: string,
    request: SandboxRequest,
    signal?: AbortSignal,
  ): Promise<SandboxResults[SandboxRequest['op']]> => {
    switch (request.op) {
      case 'exec': {
        const run = await call(sessionId, ['/bin/sh', '-c', request.command], {
          timeoutSeconds: request.timeoutSeconds,
          ...(signal ? { signal } : {}),
        });
        return { output: run.output, exitCode: run.exitCode, timedOut: run.timedOut };
      }
      case 'read': {
        // Up to 4 bytes per character: enough bytes for `limitBytes` characters and one more.
        const bytes = await readFile(sessionId, request.path, request.limitBytes * 4 + 4, signal);
        const content = bytes.toString('utf8');
        return { content: content.slice(0, request.limitBytes), truncated: content.length > request.limitBytes };
      }
      case 'write':
        await writeFile(sessionId, request.path, request.content, signal);
        return { bytesWritten: Buffer.byteLength(request.content) };
      case 'patch': {
        const bytes = await readFile(sessionId, request.path, PATCH_MAX_BYTES + 1, signal);
        if (bytes.length > PATCH_MAX_BYTES)
          throw new SandboxError(`${request.path} is larger than ${PATCH_MAX_BYTES} bytes; patch refuses it`);
        const patched = applyPatch(
          bytes.toString('utf8'),
          request.oldString,
          request.newString,
          request.replaceAll,
          request.path,
        );
        await writeFile(sessionId, request.path, patched.content, signal);
        return { replacements: patched.replacements };
      }
    }
  };

  return {
    kind: 'bwrap',
    async run<R extends SandboxRequest>(
      session: { sessionId: string },
      request: R,
      signal?: AbortSignal,
    ): Promise<SandboxResultOf<R>> {
      return (await dispatch(session.sessionId, request, signal)) as SandboxResultOf<R>;
    },
  };
}

/** Inside the sandbox: `$1` if it is a regular file (a FIFO would hang, a device be endless), at most `$2` bytes. */
const READ_SCRIPT = 'if [ ! -e "$1" ]; then exit 3; fi; if [ ! -f "$1" ]; then exit 4; fi; exec head -c "$2" -- "$1"';
/** Inside the sandbox: stdin to `$1`, parents created. */
const WRITE_SCRIPT = 'd=$(dirname -- "$1") && mkdir -p -- "$d" && exec cat > "$1"';

function fileOpError(path: string, run: ProcessRun, verb: 'read' | 'write'): string {
  if (run.timedOut) return `${verb} of ${path} timed out`;
  if (run.exitCode === 3) return `No such file or directory: ${path}`;
  if (run.exitCode === 4) return `${path} is not a regular file`;
  // "/bin/sh: 1: cannot create x: Read-only file system", "head: cannot open 'x' for reading: Permission denied"
  const reason = firstLine(run.stderr.toString('utf8')).replace(/^(read|write): \d+: /, '');
  const hint = verb === 'write' ? ` (only ${SANDBOX_WORKSPACE}, the session workspace, is writable)` : '';
  return `could not ${verb} ${path}${reason ? `: ${reason}` : ''}${hint}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

/**
 * bwrap resolves the workspace's path as the sandbox's user, so every folder above it must let
 * that user pass (`o+x`). Said plainly, rather than bwrap's "Can't find source path".
 */
function assertSearchable(dir: string, uid: number): void {
  const blocked = unsearchableAncestor(dir, uid);
  if (blocked !== undefined) {
    throw new SandboxError(
      `the tool sandbox runs as uid ${uid} (hookgate runs as root) and cannot pass ${blocked} to reach the workspaces under ${dir}: ` +
        'make it searchable (chmod o+x) or keep the workspaces elsewhere (the default is under the temp directory)',
    );
  }
}

/** The first folder on the way to `dir` (itself included) that `uid` may not pass, by owner and `o+x`; undefined when none. */
export function unsearchableAncestor(dir: string, uid: number): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    let stat;
    try {
      stat = statSync(current);
    } catch {
      return current;
    }
    if (stat.uid !== uid && (stat.mode & 0o001) === 0) return current;
    if (dirname(current) === current) return undefined;
  }
}

function existingDirectories(paths: readonly string[]): string[] {
  return paths
    .map((path) => resolve(path))
    .filter((path) => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    });
}

/**
 * Where each hidden folder appears inside the sandbox: its own path, and, under every allowed
 * root whose real path holds its real path, the same place below the root as bound. A root or a
 * hidden folder reached through a symlink (`--home` a link into an allowed root) is compared by
 * what it points to: compared by the path alone, the folder was not hidden.
 */
function hiddenInSandbox(hidden: readonly string[], roots: readonly string[]): string[] {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const places = new Set<string>();
  for (const folder of hidden) {
    places.add(folder);
    const folderReal = real(folder);
    for (const root of roots) {
      const rootReal = real(root);
      if (isInsidePath(folderReal, rootReal)) places.add(join(root, relative(rootReal, folderReal)));
    }
  }
  return [...places];
}

const sizedTmpfs = new Map<string, boolean>();

/** bwrap 0.8 added `--size` for a tmpfs (Ubuntu 22.04 ships 0.6): asked once per binary. */
export function supportsSizedTmpfs(bwrap: string): boolean {
  let known = sizedTmpfs.get(bwrap);
  if (known === undefined) {
    const version = /(\d+)\.(\d+)/.exec(spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5_000 }).stdout ?? '');
    known = version !== null && (Number(version[1]) > 0 || Number(version[2]) >= 8);
    sizedTmpfs.set(bwrap, known);
  }
  return known;
}

/**
 * The session's workspace on the host, created on first use: the root `0711` (the sandbox's
 * user passes through, lists nothing), the workspace `0700` owned by the sandbox's user.
 */
function prepareWorkspace(root: string, sessionId: string, user: { uid: number; gid: number } | undefined): string {
  mkdirSync(root, { recursive: true, mode: 0o711 });
  if (user) assertSearchable(resolve(root), user.uid);
  const dir = workspaceDir(root, sessionId);
  try {
    mkdirSync(dir, { mode: 0o700 });
    if (user) chownSync(dir, user.uid, user.gid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) throw new SandboxError('the session workspace is not a directory');
    // A workspace made before the sandbox (unsandboxed, as root): hand it over.
    if (user && stat.uid !== user.uid) chownSync(dir, user.uid, user.gid);
  }
  return dir;
}

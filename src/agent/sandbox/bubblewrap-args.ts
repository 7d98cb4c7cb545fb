import { isAbsolute, relative, sep } from 'node:path';

/** Where the session workspace appears inside the sandbox; HOME is there too. */
export const SANDBOX_WORKSPACE = '/workspace';

/** Most processes one call may run at once (its own user namespace's RLIMIT_NPROC): a fork bomb stops here. */
export const SANDBOX_MAX_PROCESSES = 256;

/**
 * The largest file one call may write (RLIMIT_FSIZE): a write past it fails (`File size limit exceeded`). It stops a
 * runaway file (`yes > log`, a stray `cat /dev/zero`) from filling the disk that holds the workspace, in seconds.
 * It bounds each file, not the workspace: many files still add up, which only a filesystem of its own bounds
 * (docs/security.md).
 */
export const SANDBOX_MAX_FILE_BYTES = 1024 * 1024 * 1024;

/**
 * The size of a call's `/tmp` and `/dev/shm` (tmpfs, so memory). Unsized, each could take half the
 * host's memory, and what a tmpfs holds is charged to no process: out of memory, the kernel kills
 * the biggest real one, the gateway. With bwrap before 0.8 (no `--size`) they stay unsized.
 */
export const SANDBOX_TMP_BYTES = 1024 * 1024 * 1024;
export const SANDBOX_SHM_BYTES = 64 * 1024 * 1024;

/**
 * The OOM killer's first choice: the score adjustment of every process of a call. What a call's
 * tmpfs holds is charged to no process, so with the host out of memory the kernel would kill the
 * biggest one it can see, the gateway; it takes the call's processes first, and the tmpfs goes
 * with the last process of the call's mount namespace. Raising one's own score needs no privilege.
 * Defence in depth against a runaway call, not a boundary: the call may lower it back to 0 (only
 * a writer with CAP_SYS_RESOURCE in the host's namespace could forbid that, which a container's
 * root does not have).
 */
export const SANDBOX_OOM_SCORE_ADJ = 1000;

/**
 * Run by bash between `prlimit` and the command: makes the call the OOM killer's first choice
 * (`SANDBOX_OOM_SCORE_ADJ`; children inherit it), closes every descriptor above 2, then execs the
 * command. bwrap passes on whatever the gateway's process holds without close-on-exec (LevelDB's
 * files under `hookgate dev`, a launcher's descriptors), and through `/proc/self/fd/N` the command
 * could read or write them; namespaces do not close them. Node opens its own with close-on-exec;
 * a native library need not. bash, because dash cannot close a descriptor above 9 by number.
 */
export const CLOSE_INHERITED_FDS =
  `echo ${SANDBOX_OOM_SCORE_ADJ} 2>/dev/null >/proc/self/oom_score_adj; ` +
  'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) eval "exec $n>&-" 2>/dev/null;; esac; done; exec "$@"';

/** The shell that runs `CLOSE_INHERITED_FDS` (bash is in `/usr/bin` on Debian, Ubuntu and Amazon Linux). */
export const SANDBOX_FD_CLOSER = '/usr/bin/bash';

/**
 * The entries of the host's `/etc` a program may need and that hold nothing of the operator's
 * (dynamic linker, alternatives, time zone, CA certificates, name service switch, MIME and magic
 * data). Everything else — passwd, shadow, hostname, machine-id, ssh keys, package-manager and
 * git/npm/pip configuration, `environment` — stays out; passwd, group and hosts are generated.
 */
export const ETC_ALLOWLIST: readonly string[] = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'nsswitch.conf',
  'protocols',
  'services',
  'mime.types',
  'magic',
  'magic.mime',
  'os-release',
  'debian_version',
  'gai.conf',
  'host.conf',
  'inputrc',
  'terminfo',
];

/** How the host's top-level system paths look: merged-usr symlinks (`/bin -> usr/bin`) or real directories. */
export interface SystemEntry {
  path: string;
  /** The symlink's target, or undefined for a directory bound read-only. */
  symlink?: string;
}

/** Everything one bwrap call is built from (host paths are absolute). */
export interface BubblewrapLayout {
  /** The session's workspace on the host: bound writable at `/workspace`. */
  workspace: string;
  network: 'none' | 'host';
  /** `/bin`, `/lib`, … as the host has them (see `SystemEntry`). */
  system: readonly SystemEntry[];
  /** `files.allowed_roots`: bound read-only at the same path. */
  readOnlyRoots: readonly string[];
  /** The hooks home, the state folder, the repository, the operator's home: hidden under an empty tmpfs where a root holds them. */
  hidden: readonly string[];
  /** `--ro-bind-data` sources: fd 3, 4, … hold passwd, group, hosts (see `sandboxEtcFiles`). */
  generatedEtc: readonly string[];
  /** Size `/tmp` and `/dev/shm` (`SANDBOX_TMP_BYTES`, `SANDBOX_SHM_BYTES`) and make the rest of `/dev` read-only: bwrap ≥ 0.8. */
  tmpfsLimits?: boolean;
  /** The descriptor bwrap reads the seccomp filter from (`sandboxSeccompFilter`); none where the architecture has no filter. */
  seccompFd?: number;
  /** The file `--json-status-fd` writes to (bwrap reports the child's start there; a setup failure never starts it). */
  statusFd: number;
}

/** `child` is `parent` or lies under it (both absolute and normalised). */
export function isInsidePath(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Roots never bound: the whole filesystem, and the kernel's own trees (the sandbox has its own /proc and /dev). */
function bindableRoot(root: string): boolean {
  return root !== '/' && !['/proc', '/sys', '/dev'].some((dir) => isInsidePath(root, dir));
}

/**
 * bwrap's arguments for one call (hook-semantics §5.9, docs/security.md): new user, PID, mount,
 * IPC, UTS and cgroup namespaces (and network, unless `network: host`); `/usr` and the merged-usr
 * links read-only; a minimal `/etc`; private `/tmp`, `/proc` and `/dev`; the workspace as the
 * only writable path; `--die-with-parent` (killing bwrap kills the tree), `--new-session` (no
 * TIOCSTI into a terminal) and the seccomp filter (`seccompFd`). `argv` runs under `prlimit --nproc`, so one call runs at most
 * `SANDBOX_MAX_PROCESSES` processes, with no descriptor but 0–2 (`CLOSE_INHERITED_FDS`).
 *
 * @example
 * bubblewrapArgs(layout, ['/bin/sh', '-c', 'ls']) // ['--unshare-user', …, '--', '/usr/bin/prlimit', …, '/usr/bin/bash', '-c', CLOSE_INHERITED_FDS, 'hookgate-sandbox', '/bin/sh', '-c', 'ls']
 */
export function bubblewrapArgs(layout: BubblewrapLayout, argv: readonly string[]): string[] {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (layout.network === 'none') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--hostname', 'sandbox');
  args.push('--ro-bind', '/usr', '/usr');
  for (const entry of layout.system) {
    if (entry.symlink !== undefined) args.push('--symlink', entry.symlink, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  if (layout.tmpfsLimits) {
    // /dev's own tmpfs is read-only once /dev/shm has a bounded one: device nodes still open for writing.
    args.push('--size', String(SANDBOX_SHM_BYTES), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
    args.push('--size', String(SANDBOX_TMP_BYTES));
  }
  args.push('--tmpfs', '/tmp', '--dir', '/etc');
  for (const name of ETC_ALLOWLIST) args.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  if (layout.network === 'host') args.push('--ro-bind-try', '/etc/resolv.conf', '/etc/resolv.conf');
  for (const [i, name] of layout.generatedEtc.entries()) args.push('--ro-bind-data', String(3 + i), `/etc/${name}`);
  const roots = layout.readOnlyRoots.filter(bindableRoot);
  for (const root of roots) args.push('--ro-bind', root, root);
  for (const hidden of layout.hidden.filter((path) => path !== '/')) {
    // Hidden only where a root holds it; a root that is the hidden folder (or inside it) was named on purpose.
    if (roots.some((root) => isInsidePath(hidden, root) && !isInsidePath(root, hidden))) args.push('--tmpfs', hidden);
  }
  args.push('--bind', layout.workspace, SANDBOX_WORKSPACE, '--chdir', SANDBOX_WORKSPACE);
  // bwrap builds the view on a tmpfs root: read-only once built, so `/etc/x` or `/x` cannot be written.
  args.push('--remount-ro', '/');
  if (layout.seccompFd !== undefined) args.push('--seccomp', String(layout.seccompFd));
  args.push('--json-status-fd', String(layout.statusFd));
  args.push(
    '--',
    '/usr/bin/prlimit',
    `--nproc=${SANDBOX_MAX_PROCESSES}:${SANDBOX_MAX_PROCESSES}`,
    `--fsize=${SANDBOX_MAX_FILE_BYTES}:${SANDBOX_MAX_FILE_BYTES}`,
    '--',
  );
  args.push(SANDBOX_FD_CLOSER, '-c', CLOSE_INHERITED_FDS, 'hookgate-sandbox', ...argv);
  return args;
}

/**
 * The generated `/etc` files, in the order of `BubblewrapLayout.generatedEtc`: one user (the
 * sandbox's uid, home `/workspace`) so `id`, `whoami`, git and ssh do not fail, and `localhost`.
 *
 * @example
 * sandboxEtcFiles(65534, 65534).passwd // 'sandbox:x:65534:65534:sandbox:/workspace:/bin/sh\n'
 */
export function sandboxEtcFiles(uid: number, gid: number): { passwd: string; group: string; hosts: string } {
  return {
    passwd: `sandbox:x:${uid}:${gid}:sandbox:${SANDBOX_WORKSPACE}:/bin/sh\n`,
    group: `sandbox:x:${gid}:\n`,
    hosts: '127.0.0.1 localhost sandbox\n::1 localhost ip6-localhost ip6-loopback\n',
  };
}

/**
 * The seccomp filter every bubblewrap sandbox runs under (bwrap's `--seccomp`): defence in depth
 * for the one boundary namespaces leave open, the host's kernel. A command in the sandbox keeps
 * every system call a program needs, and loses the ones that reach kernel code no tool needs and
 * that kernel escapes go through: new user namespaces (where an unprivileged process gets
 * capabilities over fresh kernel objects), mounts, keyrings, BPF, perf events, userfaultfd,
 * io_uring, modules, kexec, reboot, swap, accounting, quotas, the kernel log, file handles, and
 * typing into the terminal (TIOCSTI, TIOCLINUX). A refused call fails with EPERM, as it would for
 * a user without the privilege, so programs report it and go on. `clone3` fails with ENOSYS: its
 * flags sit in memory a filter cannot read, and C libraries fall back to `clone` on ENOSYS, whose
 * flags it can. A system call of another ABI (32-bit `int 0x80`, x32 on x86-64) fails with ENOSYS:
 * the list below holds the native numbers only.
 *
 * Written as classic BPF by hand (the kernel's `sock_filter` layout, little-endian): the list is
 * short and fixed, and libseccomp would be a native dependency to build at install.
 */

const ENOSYS = 38;
const EPERM = 1;

/** `sock_filter` opcodes (linux/bpf_common.h) and seccomp's return actions (linux/seccomp.h). */
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

/** Offsets in `struct seccomp_data`: nr, arch, then the six 64-bit arguments (low half first, little-endian). */
const NR = 0;
const ARCH = 4;
const arg = (i: number) => 16 + 8 * i;

const CLONE_NEWUSER = 0x10000000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** x32 system calls: the x86-64 ABI's numbers with this bit set. */
const X32_SYSCALL_BIT = 0x40000000;

/** The system calls the filter refuses and the three it looks into, by number per architecture. */
interface SyscallTable {
  /** `AUDIT_ARCH_*` (linux/audit.h). */
  audit: number;
  /** Refused outright (EPERM). */
  refused: Readonly<Record<string, number>>;
  clone: number;
  clone3: number;
  ioctl: number;
}

// The numbers are the kernel's (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h);
// test/agent/seccomp-filter.test.ts checks them against the headers installed on the machine.

/** Calls added since Linux 5.1 have one number on every architecture. */
const UNIFIED = {
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  quotactl_fd: 443,
};
const UNIFIED_CLONE3 = 435;

const X64: SyscallTable = {
  audit: 0xc000003e,
  clone: 56,
  clone3: UNIFIED_CLONE3,
  ioctl: 16,
  refused: {
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    setns: 308,
    unshare: 272,
    ...UNIFIED,
    add_key: 248,
    keyctl: 250,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    kexec_load: 246,
    kexec_file_load: 320,
    reboot: 169,
    swapon: 167,
    swapoff: 168,
    acct: 163,
    quotactl: 179,
    syslog: 103,
    open_by_handle_at: 304,
    lookup_dcookie: 212,
    uselib: 134,
  },
};

const ARM64: SyscallTable = {
  audit: 0xc00000b7,
  clone: 220,
  clone3: UNIFIED_CLONE3,
  ioctl: 29,
  refused: {
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    setns: 268,
    unshare: 97,
    ...UNIFIED,
    add_key: 217,
    keyctl: 219,
    request_key: 218,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    kexec_load: 104,
    kexec_file_load: 294,
    reboot: 142,
    swapon: 224,
    swapoff: 225,
    acct: 89,
    quotactl: 60,
    syslog: 116,
    open_by_handle_at: 265,
    lookup_dcookie: 18,
  },
};

/** The tables by `process.arch`; exported for the test that reads the kernel's headers. */
export const SECCOMP_SYSCALL_TABLES: Readonly<Record<'x64' | 'arm64', SyscallTable>> = { x64: X64, arm64: ARM64 };

/** One instruction, with its jumps still named: resolved to forward offsets by {@link assemble}. */
type Instruction = { code: number; k: number; jt?: string; jf?: string; label?: string };

/**
 * The filter for `arch` (default this process's) as bwrap reads it from `--seccomp FD`: a
 * compiled `sock_filter` array. Undefined on an architecture without a table (the sandbox then
 * runs without one, as docs/security.md says).
 *
 * @example
 * const filter = sandboxSeccompFilter(); // Buffer of 8-byte instructions, or undefined
 */
export function sandboxSeccompFilter(arch: string = process.arch): Buffer | undefined {
  const table = arch === 'x64' || arch === 'arm64' ? SECCOMP_SYSCALL_TABLES[arch] : undefined;
  if (!table) return undefined;
  const program: Instruction[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ_K, k: table.audit, jf: 'no-such-call' },
    { code: LD_W_ABS, k: NR },
    ...(arch === 'x64' ? [{ code: JGE_K, k: X32_SYSCALL_BIT, jt: 'no-such-call' }] : []),
    { code: JEQ_K, k: table.clone3, jt: 'no-such-call' },
    { code: JEQ_K, k: table.clone, jt: 'clone' },
    { code: JEQ_K, k: table.ioctl, jt: 'ioctl' },
    ...Object.values(table.refused).map((nr) => ({ code: JEQ_K, k: nr, jt: 'refuse' })),
    { code: RET_K, k: RET_ALLOW },
    // clone(flags, …): a new user namespace is refused, threads and processes are not.
    { code: LD_W_ABS, k: arg(0), label: 'clone' },
    { code: JSET_K, k: CLONE_NEWUSER, jt: 'refuse' },
    { code: RET_K, k: RET_ALLOW },
    // ioctl(fd, request, …): the two requests that type into or take over the terminal.
    { code: LD_W_ABS, k: arg(1), label: 'ioctl' },
    { code: JEQ_K, k: TIOCSTI, jt: 'refuse' },
    { code: JEQ_K, k: TIOCLINUX, jt: 'refuse' },
    { code: RET_K, k: RET_ALLOW },
    { code: RET_K, k: RET_ERRNO | EPERM, label: 'refuse' },
    { code: RET_K, k: RET_ERRNO | ENOSYS, label: 'no-such-call' },
  ];
  return assemble(program);
}

/** Resolves the named jumps to forward offsets (from the next instruction) and writes the 8-byte instructions. */
function assemble(program: readonly Instruction[]): Buffer {
  const at = new Map(program.flatMap((instruction, i) => (instruction.label ? [[instruction.label, i] as const] : [])));
  const offset = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const distance = at.get(label)! - from - 1;
    // Classic BPF jumps forward only, at most 255 instructions.
    if (!(distance >= 0 && distance <= 255)) throw new RangeError(`seccomp filter: jump to ${label} out of range`);
    return distance;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, i) => {
    out.writeUInt16LE(instruction.code, i * 8);
    out.writeUInt8(offset(i, instruction.jt), i * 8 + 2);
    out.writeUInt8(offset(i, instruction.jf), i * 8 + 3);
    out.writeUInt32LE(instruction.k >>> 0, i * 8 + 4);
  });
  return out;
}

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECCOMP_SYSCALL_TABLES, sandboxSeccompFilter } from '../../src/agent/sandbox/seccomp-filter.ts';

/** `#define __NR_<name> <n>` (or asm-generic's `__NR3264_<name>`) of a kernel header, by name. */
function headerNumbers(file: string): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const [, name, value] of readFileSync(file, 'utf8').matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$/gm))
    numbers.set(name!, Number(value));
  return numbers;
}

const HEADERS = {
  x64: '/usr/include/x86_64-linux-gnu/asm/unistd_64.h',
  // arm64 uses the generic table.
  arm64: '/usr/include/asm-generic/unistd.h',
} as const;

describe('the sandbox seccomp filter (src/agent/sandbox/seccomp-filter.ts)', () => {
  for (const arch of ['x64', 'arm64'] as const) {
    it.skipIf(!existsSync(HEADERS[arch]))(`numbers every ${arch} system call as the kernel's headers do`, () => {
      const kernel = headerNumbers(HEADERS[arch]);
      const table = SECCOMP_SYSCALL_TABLES[arch];
      const ours = { ...table.refused, clone: table.clone, clone3: table.clone3, ioctl: table.ioctl };
      expect(Object.keys(ours).length).toBeGreaterThan(30);
      for (const [name, nr] of Object.entries(ours)) expect(kernel.get(name), `${arch} ${name}`).toBe(nr);
    });
  }

  it('refuses the same calls on both architectures (uselib exists on x86-64 only)', () => {
    const names = (arch: 'x64' | 'arm64') => Object.keys(SECCOMP_SYSCALL_TABLES[arch].refused).sort();
    expect(names('x64').filter((name) => name !== 'uselib')).toEqual(names('arm64'));
  });

  it('is a whole number of 8-byte instructions ending in the two refusals; none on an architecture without a table', () => {
    for (const arch of ['x64', 'arm64']) {
      const filter = sandboxSeccompFilter(arch)!;
      expect(filter.length % 8).toBe(0);
      const last = (i: number) => filter.readUInt32LE(filter.length - 8 * i + 4);
      expect([last(2), last(1)]).toEqual([0x00050000 | 1, 0x00050000 | 38]); // EPERM, ENOSYS
    }
    expect(sandboxSeccompFilter('ia32')).toBeUndefined();
  });
});

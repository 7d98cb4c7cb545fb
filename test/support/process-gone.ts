import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` runs nothing more: gone, or a zombie nobody reaped yet (a container's
 * PID 1 may not reap). Linux only (reads /proc).
 *
 * @example
 * await until(() => processGone(grandchild), 'the grandchild to be killed');
 */
export function processGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .startsWith('Z');
  } catch {
    return true;
  }
}

import { closeSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { CAPTURE_LIMIT_BYTES } from './run-record.ts';

/** A hook's stdout or stderr as captured: at most the cap, and whether more was written. */
export interface CapturedOutput {
  text: string;
  truncated: boolean;
}

const EMPTY: CapturedOutput = Object.freeze({ text: '', truncated: false });

/** How often a running hook's output files are checked against the cap. */
export const WATCH_INTERVAL_MS = 200;

/**
 * Reads at most {@link CAPTURE_LIMIT_BYTES} from the start of an output file a hook wrote. A
 * `stat` first: the usual empty stderr costs that one call. Missing or unreadable counts as empty.
 *
 * @example
 * const { text, truncated } = readCapturedFile('/dev/shm/hookgate-sh-1-x/0.out3');
 */
export function readCapturedFile(path: string): CapturedOutput {
  try {
    const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    if (size === 0) return EMPTY;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(Math.min(size, CAPTURE_LIMIT_BYTES));
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, read);
        if (n === 0) break;
        read += n;
      }
      return { text: buffer.toString('utf8', 0, read), truncated: size > CAPTURE_LIMIT_BYTES };
    } finally {
      closeSync(fd);
    }
  } catch {
    return EMPTY;
  }
}

/**
 * The watchdog's check of a running hook's output file: truncates it to the cap once it grew
 * past it, so a runaway hook cannot fill the disk before it exits (the hook writes with
 * O_APPEND, so later writes land at the new end); true if it did. Call it every
 * {@link WATCH_INTERVAL_MS} while the hook runs.
 *
 * @example
 * cut.out ||= cutToCap(outPath);
 */
export function cutToCap(path: string): boolean {
  try {
    if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) <= CAPTURE_LIMIT_BYTES) return false;
    truncateSync(path, CAPTURE_LIMIT_BYTES);
    return true;
  } catch {
    return false;
  }
}

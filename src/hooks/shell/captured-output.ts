import { fstatSync, readSync } from 'node:fs';
import { CAPTURE_LIMIT_BYTES } from './run-record.ts';

/** A hook's stdout or stderr as captured: at most the cap, and whether more was written. */
export interface CapturedOutput {
  text: string;
  truncated: boolean;
}

const EMPTY: CapturedOutput = Object.freeze({ text: '', truncated: false });

/**
 * Reads at most {@link CAPTURE_LIMIT_BYTES} from the start of an output file a hook wrote
 * (positional reads: the hook's own offset is left alone). Unreadable counts as empty.
 *
 * @example
 * const { text, truncated } = readCapturedOutput(fd);
 */
export function readCapturedOutput(fd: number): CapturedOutput {
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return EMPTY; // the usual stderr: no buffer, no read
    const buffer = Buffer.allocUnsafe(Math.min(size, CAPTURE_LIMIT_BYTES));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.toString('utf8', 0, read), truncated: size > CAPTURE_LIMIT_BYTES };
  } catch {
    return EMPTY;
  }
}

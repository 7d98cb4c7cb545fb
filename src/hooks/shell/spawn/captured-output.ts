import { fstatSync, readSync, statSync, truncateSync } from 'node:fs';
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

/** How often a running hook's output files are checked against the cap. */
const WATCH_INTERVAL_MS = 200;

/**
 * While a hook runs, cuts its stdout and stderr files back to the cap every 200 ms, so a
 * runaway hook cannot fill disk before it exits; `cut` says which were cut. The files are
 * the /bin/sh driver's per-run files, which the hook writes with O_APPEND, so later writes
 * land at the new end. Call `stop()` once it exited.
 *
 * @example
 * const watch = watchCapturedOutput(outPath, errPath);
 * // … the hook exits
 * watch.stop();
 * ranRecord(code, { out, err }, { ...watch.cut, timedOut }, start);
 */
export function watchCapturedOutput(out: string, err: string): { readonly cut: { out: boolean; err: boolean }; stop(): void } {
  const cut = { out: false, err: false };
  let timer = setTimeout(function check() {
    cut.out ||= capAtLimit(out);
    cut.err ||= capAtLimit(err);
    timer = setTimeout(check, WATCH_INTERVAL_MS);
    timer.unref();
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return { cut, stop: () => clearTimeout(timer) };
}

/** Truncates an output file that grew past the cap; true if it did. */
function capAtLimit(file: string): boolean {
  try {
    if (statSync(file).size <= CAPTURE_LIMIT_BYTES) return false;
    truncateSync(file, CAPTURE_LIMIT_BYTES);
    return true;
  } catch {
    return false;
  }
}

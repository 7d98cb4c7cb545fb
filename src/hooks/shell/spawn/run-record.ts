/** What one run of a shell hook yields (hook-semantics §3.5 step 6). */
export interface ShellRunRecord {
  /** Exit code; minus the signal number when killed by a signal; `null` on error or timeout. */
  returncode: number | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  /** Monotonic, rounded to 3 decimals. */
  elapsed_seconds: number;
  /** The spawn error string (§3.5 step 4), or `null`. */
  error: string | null;
  /** Output beyond the capture cap was dropped (a runaway hook must not exhaust memory). */
  stdout_truncated: boolean;
  stderr_truncated: boolean;
}

/**
 * Each of stdout and stderr keeps at most this many bytes; the rest is dropped and noted. §3.5
 * captures output in full: 8 MiB is far beyond any hook's answer (a block, a context, a
 * replacement), while a runaway hook still cannot exhaust a function's memory or /tmp.
 */
export const CAPTURE_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * The record of a hook that ran (or was killed at its timeout): exit status, captured
 * output and whether any of it was cut at the cap, here or by a watchdog before.
 */
export function ranRecord(
  returncode: number | null,
  output: { out: { text: string; truncated: boolean }; err: { text: string; truncated: boolean } },
  cut: { out: boolean; err: boolean; timedOut: boolean },
  startMs: number,
): ShellRunRecord {
  return {
    returncode: cut.timedOut ? null : returncode,
    stdout: output.out.text,
    stderr: output.err.text,
    timed_out: cut.timedOut,
    elapsed_seconds: roundSeconds(performance.now() - startMs),
    error: null,
    stdout_truncated: cut.out || output.out.truncated,
    stderr_truncated: cut.err || output.err.truncated,
  };
}

export function errorRecord(error: string, startMs: number): ShellRunRecord {
  return {
    returncode: null,
    stdout: '',
    stderr: '',
    timed_out: false,
    elapsed_seconds: roundSeconds(performance.now() - startMs),
    error,
    stdout_truncated: false,
    stderr_truncated: false,
  };
}

/** Milliseconds → seconds rounded to 3 decimals. */
export function roundSeconds(ms: number): number {
  return Math.round(ms) / 1000;
}

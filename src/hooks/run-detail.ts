import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a callback can tell a trace about its run beyond its return value: a shell hook's
 * exit code and output (cut), or that it was skipped and why.
 */
export interface RunDetail {
  /** Why the callback did nothing: `matcher`, `changed since approval`. */
  skipped?: string;
  exit_code?: number | null;
  stdout?: string;
  stderr?: string;
  timed_out?: boolean;
}

/** How much of a shell hook's stdout and stderr a run detail keeps (the trace redacts it). */
export const RUN_DETAIL_OUTPUT_CHARS = 2000;

const slot = new AsyncLocalStorage<{ detail?: RunDetail }>();

/**
 * Called by a callback (the shell-hook dispatcher) while it runs: the detail goes into the
 * run record of the callback in progress, when someone records runs; otherwise it is dropped.
 *
 * @example
 * reportRunDetail({ skipped: 'matcher' });
 */
export function reportRunDetail(detail: RunDetail): void {
  const box = slot.getStore();
  if (box) box.detail = { ...box.detail, ...detail };
}

/**
 * Calls `fn` (one callback) collecting what it reports with {@link reportRunDetail}; the
 * box is filled as the callback's promise settles.
 *
 * @example
 * const box = {}; const value = callCollectingDetail(box, () => callback.fn(kwargs));
 */
export function callCollectingDetail<T>(box: { detail?: RunDetail }, fn: () => T): T {
  return slot.run(box, fn);
}

/** Text cut to {@link RUN_DETAIL_OUTPUT_CHARS}, saying how much was dropped. */
export function cutOutput(text: string): string {
  return text.length > RUN_DETAIL_OUTPUT_CHARS
    ? `${text.slice(0, RUN_DETAIL_OUTPUT_CHARS)}… (${text.length - RUN_DETAIL_OUTPUT_CHARS} more characters)`
    : text;
}

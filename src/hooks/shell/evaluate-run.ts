import { firstCharacters } from '../first-characters.ts';
import type { HookLogger } from '../hook-logger.ts';
import { logExcerpt } from '../../secrets/log-excerpt.ts';
import { isPlainObject } from '../python-truthiness.ts';
import { blockFrom, DEFAULT_BLOCK_MESSAGE, parseHookOutput, parseStdoutJson, type ShellHookResult } from './parse-hook-output.ts';
import type { ShellRunRecord } from './spawn/run-record.ts';

export interface EvaluatedRun {
  result: ShellHookResult;
  /** The result is a §5.1 fail-closed block. */
  failedClosed: boolean;
}

interface EvaluatedEntry {
  readonly event: string;
  readonly command: string;
  readonly timeout: number;
  readonly failClosed: boolean;
  /** `claude`: the hook answers in Claude Code's shapes too (its `additionalContext`). */
  readonly payload?: 'claude';
}

/**
 * Decides what one run contributes to the dispatcher: §3.5 step 7 (everything fails open),
 * replaced for `pre_tool_call` by the §5.0 order (fail_closed, exit 2, hookSpecificOutput).
 *
 * @example
 * evaluateRun(entry, { returncode: 2, stdout: '', stderr: 'rm -rf is not allowed', … }, logger)
 * // { result: { action: 'block', message: 'rm -rf is not allowed' }, failedClosed: false }
 */
export function evaluateRun(entry: EvaluatedEntry, run: ShellRunRecord, logger: HookLogger): EvaluatedRun {
  const { event, command } = entry;
  const failClosed = entry.failClosed && event === 'pre_tool_call';
  const closed = (reason: string): EvaluatedRun => ({
    result: { action: 'block', message: `hook ${command} failed closed: ${reason}` },
    failedClosed: true,
  });
  if (run.error !== null) {
    logger.warn(`shell hook failed (event=${event} command=${command}): ${run.error}`);
    return failClosed ? closed(run.error) : { result: undefined, failedClosed: false };
  }
  if (run.timed_out) {
    logger.warn(`shell hook timed out after ${run.elapsed_seconds.toFixed(2)}s (event=${event} command=${command})`);
    return failClosed ? closed(`timed out after ${entry.timeout}s`) : { result: undefined, failedClosed: false };
  }
  const stderr = run.stderr.trim();
  if (stderr !== '') logger.debug(`shell hook stderr (event=${event} command=${command}): ${logExcerpt(stderr)}`);
  if (event === 'pre_tool_call' && run.returncode === 2) {
    const parsed = parseStdoutJson(event, run.stdout, logger);
    const directive = parsed.ok && isPlainObject(parsed.value) ? blockFrom(parsed.value) : undefined;
    const message = directive?.message ?? (stderr !== '' ? firstCharacters(stderr, 400) : DEFAULT_BLOCK_MESSAGE);
    logger.info(`shell hook blocked via exit code 2 (command=${command}): ${logExcerpt(message)}`);
    return { result: { action: 'block', message }, failedClosed: false };
  }
  if (run.returncode !== 0) {
    logger.warn(
      `shell hook exited with code ${run.returncode} (event=${event} command=${command})` +
        (stderr !== '' ? `: ${logExcerpt(stderr)}` : ''),
    );
  }
  const result = parseHookOutput(event, run.stdout, logger, entry.payload === 'claude');
  if (result === undefined && failClosed) {
    const text = run.stdout.trim();
    if (text !== '') {
      let isObject = false;
      try {
        isObject = isPlainObject(JSON.parse(text));
      } catch {
        isObject = false;
      }
      if (!isObject) return closed('unparseable stdout (expected a JSON object)');
    }
  }
  return { result, failedClosed: false };
}

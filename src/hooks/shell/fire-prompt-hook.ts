import { readPromptDecision } from '../prompt/prompt-decision.ts';
import type { PromptJudge } from '../prompt/prompt-judge.ts';
import { standInJudge } from '../prompt/stand-in-judge.ts';
import { errorText } from '../../errors/error-text.ts';
import { roundSeconds, type ShellRunRecord } from './spawn/run-record.ts';

/**
 * Asks the model of a `type: prompt` hook and reports the answer as a command's run record
 * (hook-semantics §5.10): a structured decision becomes the equivalent stdout (exit 0); an
 * answer that is not one, a model error, or no answer within the entry's timeout is a failed
 * run, so `fail_closed` decides. Without a `judge`, the local stand-in judges.
 *
 * @example
 * const run = await runPromptHook({ event: 'pre_tool_call', prompt: 'Block "rm -rf".', timeout: 30 }, input, judge);
 */
export async function runPromptHook(
  entry: { event: string; prompt?: string; model?: string; timeout: number },
  input: string,
  judge: PromptJudge = standInJudge,
): Promise<ShellRunRecord> {
  const started = performance.now();
  const base = { stdout: '', stderr: '', timed_out: false, error: null, stdout_truncated: false, stderr_truncated: false };
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), entry.timeout * 1000);
  });
  try {
    const asked = judge({
      prompt: entry.prompt ?? '',
      input,
      event: entry.event,
      ...(entry.model ? { model: entry.model } : {}),
      signal: abort.signal,
    });
    const answer = await Promise.race([asked, deadline]);
    const elapsed_seconds = roundSeconds(performance.now() - started);
    if (answer === 'timed-out') {
      abort.abort();
      asked.catch(() => undefined);
      return { ...base, returncode: null, timed_out: true, elapsed_seconds };
    }
    const decision = readPromptDecision(entry.event, answer);
    if (!decision.ok) return { ...base, returncode: null, error: decision.error, elapsed_seconds };
    return { ...base, returncode: 0, stdout: decision.stdout, elapsed_seconds };
  } catch (error) {
    return {
      ...base,
      returncode: null,
      error: `the model could not be asked: ${errorText(error)}`,
      elapsed_seconds: roundSeconds(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

import type { HookLogger } from '../hook-logger.ts';
import { cutOutput, reportRunDetail } from '../run-detail.ts';
import { evaluateRun, type EvaluatedRun } from './evaluate-run.ts';
import type { ShellRunRecord } from './spawn/run-record.ts';
import { hookEnvironment } from './spawn/hook-environment.ts';
import { runShellCommand, type RunShellCommandOptions } from './spawn/run-shell-command.ts';
import type { PayloadSerialisationError } from './spawn/shell-errors.ts';
import type { ShellHookEntry } from './config/shell-hook-entry.ts';
import { hookgateToolInput, renderClaudePayload } from './claude-payload.ts';
import { claudeEventNameFor, claudeEventSkip, promptBlockOf } from './claude-event-gate.ts';
import { renderShellPayload } from './shell-payload.ts';
import { currentDirectory } from './spawn/current-directory.ts';
import { errorRecord } from './spawn/run-record.ts';
import { runHttpHook, type HttpHookContext } from './fire-http-hook.ts';
import { runPromptHook } from './fire-prompt-hook.ts';
import type { PromptJudge } from '../prompt/prompt-judge.ts';
import type { PromptBlock } from '../aggregate/prompt-block.ts';
import { errorText } from '../../errors/error-text.ts';

export interface FiredShellHook extends Omit<EvaluatedRun, 'result'> {
  /** What the live callback contributes: a `payload: claude` entry's Claude Code answers read as its event would. */
  result: EvaluatedRun['result'] | PromptBlock;
  run: ShellRunRecord;
}

/** How the entries that are not commands run (hook-semantics §5.10); commands ignore it. */
export interface HookRunOptions extends RunShellCommandOptions {
  /** http entries: address policy and signing key; absent = the strict policy, unsigned. */
  http?: HttpHookContext;
  /** prompt entries: the model; absent = the local stand-in judge. */
  judge?: PromptJudge;
}

const STRICT_HTTP: HttpHookContext = { policy: { allowPrivate: false, allowLoopback: false } };

/**
 * Runs one entry on `kwargs` without the matcher gate: payload, spawn, evaluation, then a
 * `payload: claude` entry's Claude Code answers (a UserPromptSubmit block or `additionalContext`,
 * an `updatedInput` in hookgate's argument names). The live callback and `hookgate hooks test`/`doctor` share it, so
 * they decide alike (hook-semantics §4.2: test evaluates "as the live path does").
 *
 * @example
 * const { result, run } = await fireShellHook(entry, { tool_name: 'terminal', args: {} }, logger);
 */
export async function fireShellHook(
  entry: ShellHookEntry,
  kwargs: Record<string, unknown>,
  logger: HookLogger,
  options: HookRunOptions = {},
): Promise<FiredShellHook> {
  let run: ShellRunRecord;
  try {
    const { input, extraEnv } = shellHookInput(entry, kwargs);
    if (entry.type === 'http') run = await runHttpHook(entry.command, input, entry.timeout, entry, options.http ?? STRICT_HTTP);
    else if (entry.type === 'prompt') run = await runPromptHook(entry, input, options.judge);
    else
      run = await runShellCommand(
        entry.runCommand ?? entry.command,
        input,
        entry.timeout,
        extraEnv ? { ...options, extraEnv } : options,
      );
  } catch (error) {
    // Payload serialisation (§3.5 step 1) is a spawn error too.
    run = errorRecord(errorText(error), performance.now());
  }
  const evaluated = evaluateRun(entry, run, logger);
  const result =
    entry.payload === 'claude' && entry.event === 'pre_llm_call'
      ? (promptBlockOf(run) ?? evaluated.result)
      : asHookgateRewrite(entry, kwargs, evaluated.result);
  return { ...evaluated, result, run };
}

/**
 * What one entry's child gets: its stdin (the Hermes payload of §3.6, or Claude Code's for
 * `payload: claude`) and, for the latter, CLAUDE_PROJECT_DIR (the directory the payload calls
 * `cwd`). Throws {@link PayloadSerialisationError} when the kwargs cannot be rendered.
 *
 * @example
 * const { input, extraEnv } = shellHookInput(entry, kwargs);
 */
export function shellHookInput(
  entry: Pick<ShellHookEntry, 'event' | 'payload' | 'claudeEvent'>,
  kwargs: Record<string, unknown>,
): { input: string; extraEnv?: Record<string, string> } {
  if (entry.payload !== 'claude') return { input: renderShellPayload(entry.event, kwargs) };
  const cwd = currentDirectory();
  const eventName = claudeEventNameFor(entry, kwargs);
  return { input: renderClaudePayload(entry.event, kwargs, cwd, eventName), extraEnv: { CLAUDE_PROJECT_DIR: cwd } };
}

/**
 * The dispatcher callback of one entry (§3.3 runtime gate, §3.5): no match → "no value"
 * without spawning anything. The hook runs with the hook environment (`hookEnvironment`:
 * no secrets but those `envPassthrough` names). Never throws.
 *
 * @example
 * registry.register({ hook: entry.event, name: shellCallbackName(entry), source: 'shell', fn: shellHookCallback(entry, logger) });
 */
export function shellHookCallback(
  entry: ShellHookEntry,
  logger: HookLogger,
  envPassthrough: readonly string[] = [],
  runners: { http?: () => HttpHookContext; judge?: PromptJudge } = {},
): (kwargs: Record<string, unknown>) => Promise<unknown> {
  const gated = entry.event === 'pre_tool_call' || entry.event === 'post_tool_call';
  return async (kwargs) => {
    if (gated && !entry.matches(kwargs.tool_name)) {
      reportRunDetail({ skipped: 'matcher' });
      return undefined;
    }
    const notFired = claudeEventSkip(entry, kwargs);
    if (notFired !== undefined) {
      reportRunDetail({ skipped: notFired });
      return undefined;
    }
    // Built per firing: the deployment secret's names (and the signing key) count from the moment it is read.
    const fired = await fireShellHook(entry, kwargs, logger, {
      environment: hookEnvironment(envPassthrough),
      ...(runners.http ? { http: runners.http() } : {}),
      ...(runners.judge ? { judge: runners.judge } : {}),
    });
    const { run } = fired;
    // For the trace (cut here; redacted with the rest of the trace record when it is stored).
    reportRunDetail({
      exit_code: run.returncode,
      stdout: cutOutput(run.stdout),
      stderr: cutOutput(run.error ?? run.stderr),
      ...(run.timed_out ? { timed_out: true } : {}),
    });
    return fired.result;
  };
}

/** An `updatedInput` rewrite in hookgate's argument names: converted from Claude Code's for `payload: claude`. */
function asHookgateRewrite(
  entry: Pick<ShellHookEntry, 'payload'>,
  kwargs: Record<string, unknown>,
  result: EvaluatedRun['result'],
): EvaluatedRun['result'] {
  if (!result || !('action' in result) || result.action !== 'rewrite') return result;
  const tool = typeof kwargs.tool_name === 'string' ? kwargs.tool_name : '';
  const args = result.fromUpdatedInput && entry.payload === 'claude' ? hookgateToolInput(tool, result.args) : result.args;
  return { action: 'rewrite', args };
}

/** `shell_hook[<event>:<command>]` (§1.3); `http_hook[…]` and `prompt_hook[…]` for the other types (§5.10). */
export function shellCallbackName(entry: Pick<ShellHookEntry, 'event' | 'command' | 'type'>): string {
  const kind = entry.type === 'http' ? 'http_hook' : entry.type === 'prompt' ? 'prompt_hook' : 'shell_hook';
  return `${kind}[${entry.event}:${entry.command}]`;
}

import { firstCharacters } from '../first-characters.ts';
import type { HookLogger } from '../hook-logger.ts';
import { isPlainObject } from '../python-truthiness.ts';
import type { ShellHookEntry } from './config/shell-hook-entry.ts';
import type { PromptJudge } from '../prompt/prompt-judge.ts';
import type { HttpHookContext } from './fire-http-hook.ts';
import { hookEnvironment } from './spawn/hook-environment.ts';
import { fireShellHook, type HookRunOptions } from './shell-hook-callback.ts';
import type { ShellRunRecord } from './spawn/run-record.ts';

/** A PermissionRequest hook's answer: `allow` runs the command without asking, `deny` refuses it. */
export type PermissionAnswer = { permission: 'allow' } | { permission: 'deny'; message: string };

/**
 * Runs a `claude_event: PermissionRequest` entry on an approval's kwargs and reads its answer
 * as Claude Code does: `hookSpecificOutput.decision.behavior` `"allow"` or `"deny"`
 * (`message` the reason), or exit code 2 (stderr the reason) for deny. Anything else —
 * no decision, an error, a timeout — is no answer: the user is asked as usual.
 *
 * @example
 * await askPermissionHook(entry, { command: 'rm -rf build', description: 'recursive delete', … }, logger, {})
 * // { permission: 'deny', message: 'not on Fridays' }
 */
export async function askPermissionHook(
  entry: ShellHookEntry,
  kwargs: Record<string, unknown>,
  logger: HookLogger,
  options: HookRunOptions,
): Promise<PermissionAnswer | undefined> {
  const { run } = await fireShellHook(entry, kwargs, logger, options);
  return permissionAnswerOf(run);
}

/**
 * A PermissionRequest hook's run read as Claude Code reads it (see {@link askPermissionHook}); the live
 * approval gate and `hookgate hooks test` both read it here.
 *
 * @example
 * permissionAnswerOf({ returncode: 2, stderr: 'not on Fridays', … }) // { permission: 'deny', message: 'not on Fridays' }
 */
export function permissionAnswerOf(run: ShellRunRecord): PermissionAnswer | undefined {
  if (run.error !== null || run.timed_out) return undefined;
  if (run.returncode === 2)
    return { permission: 'deny', message: firstCharacters(run.stderr.trim(), 400) || 'Denied by a PermissionRequest hook.' };
  let value: unknown;
  try {
    value = JSON.parse(run.stdout.trim());
  } catch {
    return undefined;
  }
  const specific = isPlainObject(value) ? value.hookSpecificOutput : undefined;
  const decision = isPlainObject(specific) ? specific.decision : undefined;
  if (!isPlainObject(decision)) return undefined;
  if (decision.behavior === 'allow') return { permission: 'allow' };
  if (decision.behavior === 'deny') {
    return {
      permission: 'deny',
      message:
        typeof decision.message === 'string' && decision.message !== ''
          ? decision.message
          : 'Denied by a PermissionRequest hook.',
    };
  }
  return undefined;
}

/**
 * The callback of a PermissionRequest entry (registered under `permission_request`): its
 * answer, or "no value". Same environment and runners as every hook callback.
 *
 * @example
 * registry.register({ hook: PERMISSION_REQUEST_HOOK, name, source: 'shell', fn: permissionCallback(entry, logger, [], {}) });
 */
export function permissionCallback(
  entry: ShellHookEntry,
  logger: HookLogger,
  envPassthrough: readonly string[],
  runners: { http?: () => HttpHookContext; judge?: PromptJudge },
): (kwargs: Record<string, unknown>) => Promise<PermissionAnswer | undefined> {
  return (kwargs) =>
    askPermissionHook(entry, kwargs, logger, {
      environment: hookEnvironment(envPassthrough),
      ...(runners.http ? { http: runners.http() } : {}),
      ...(runners.judge ? { judge: runners.judge } : {}),
    });
}

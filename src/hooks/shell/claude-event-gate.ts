import { firstCharacters } from '../first-characters.ts';
import type { PromptBlock } from '../aggregate/prompt-block.ts';
import type { InternalHookName } from '../catalogue.ts';
import { isPlainObject } from '../python-truthiness.ts';
import type { ShellHookEntry } from './config/shell-hook-entry.ts';
import type { ShellRunRecord } from './spawn/run-record.ts';

/**
 * Why a `payload: claude` entry does not fire for these kwargs, as its Claude Code event would
 * not (docs/reference/claude-code.md), or undefined when it fires:
 *
 * - `post_tool_call`: never for a call a hook blocked (Claude Code fires no PostToolUse for
 *   a denied call); `claude_event: PostToolUse` only for a result that is not an error,
 *   `claude_event: PostToolUseFailure` only for an error; without `claude_event` both.
 *
 * Every other entry fires as before. (A `claude_event: PermissionRequest` entry is not an
 * observer at all: it is registered under {@link PERMISSION_REQUEST_HOOK}.) The reason goes into
 * the trace as the callback's `skipped: …`.
 *
 * @example
 * claudeEventSkip({ event: 'post_tool_call', payload: 'claude' }, { status: 'blocked' }) // 'the call was blocked (Claude Code fires no PostToolUse for it)'
 */
export function claudeEventSkip(
  entry: Pick<ShellHookEntry, 'event' | 'payload' | 'claudeEvent'>,
  kwargs: Record<string, unknown>,
): string | undefined {
  if (entry.payload !== 'claude' || entry.event !== 'post_tool_call') return undefined;
  if (kwargs.status === 'blocked') return 'the call was blocked (Claude Code fires no PostToolUse for it)';
  if (entry.claudeEvent === 'PostToolUse' && kwargs.status === 'error')
    return 'the call failed (PostToolUseFailure, not PostToolUse)';
  if (entry.claudeEvent === 'PostToolUseFailure' && kwargs.status !== 'error')
    return 'the call did not fail (PostToolUse, not PostToolUseFailure)';
  return undefined;
}

/**
 * The internal hook name under which `claude_event: PermissionRequest` entries (config
 * event `pre_approval_request`) are registered: the approval gate asks them, before the chat
 * is asked, whether a dangerous command may run (permission-request.ts). It is not one of
 * the 19 plugin hooks; traces show it under this name.
 */
export const PERMISSION_REQUEST_HOOK = 'permission_request' satisfies InternalHookName;

/** True for an entry that answers approvals (Claude Code's PermissionRequest) instead of observing them. */
export function answersPermission(entry: Pick<ShellHookEntry, 'event' | 'payload' | 'claudeEvent'>): boolean {
  return entry.payload === 'claude' && entry.event === 'pre_approval_request' && entry.claudeEvent === 'PermissionRequest';
}

/**
 * The Claude Code event name a `payload: claude` hook is told (`hook_event_name`) when one
 * hookgate event stands for several: PostToolUseFailure for an error result, Notification /
 * PermissionRequest on pre_approval_request.
 */
export function claudeEventNameFor(
  entry: Pick<ShellHookEntry, 'event' | 'claudeEvent'>,
  kwargs: Record<string, unknown>,
): string | undefined {
  if (entry.event === 'post_tool_call') return kwargs.status === 'error' ? 'PostToolUseFailure' : 'PostToolUse';
  if (entry.event === 'pre_approval_request')
    return entry.claudeEvent === 'PermissionRequest' ? 'PermissionRequest' : 'Notification';
  return undefined;
}

/**
 * A `payload: claude` `pre_llm_call` (UserPromptSubmit) hook that blocks the prompt, as
 * Claude Code reads it: exit code 2 (stderr the reason) or `{"decision": "block", "reason"}`.
 * The turn then ends before the model, the reason as the reply (promptBlockMessage).
 *
 * @example
 * promptBlockOf({ returncode: 2, stderr: 'no secrets in prompts', … }) // { action: 'block_turn', message: 'no secrets in prompts' }
 */
export function promptBlockOf(run: ShellRunRecord): PromptBlock | undefined {
  if (run.error !== null || run.timed_out) return undefined;
  if (run.returncode === 2)
    return { action: 'block_turn', message: firstCharacters(run.stderr.trim(), 400) || 'The prompt was blocked by a hook.' };
  let value: unknown;
  try {
    value = JSON.parse(run.stdout.trim());
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || value.decision !== 'block') return undefined;
  return {
    action: 'block_turn',
    message: typeof value.reason === 'string' && value.reason !== '' ? value.reason : 'The prompt was blocked by a hook.',
  };
}

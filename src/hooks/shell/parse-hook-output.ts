import type { HookLogger } from '../hook-logger.ts';
import { logExcerpt } from '../../secrets/log-excerpt.ts';
import { isPlainObject, isTruthy } from '../python-truthiness.ts';

export const DEFAULT_BLOCK_MESSAGE = 'Blocked by shell hook.';

export interface BlockDirective {
  action: 'block';
  message: string;
}
export interface ContextResult {
  context: string;
}
/**
 * A rewrite of the tool's arguments (hook-semantics §5.10): `{"action": "rewrite", "args"}`,
 * or Claude Code's `hookSpecificOutput.updatedInput` (`fromUpdatedInput`: in the field names
 * of the payload the hook got, converted by the callback).
 */
export interface RewriteResult {
  action: 'rewrite';
  args: Record<string, unknown>;
  fromUpdatedInput?: true;
}
/** What a shell hook contributes to the dispatcher; `undefined` is "no value". */
export type ShellHookResult = BlockDirective | ContextResult | RewriteResult | undefined;

/**
 * Parses a shell hook's stdout for `event` (hook-semantics §3.7, §5.3): on `pre_tool_call`
 * the `action`/`decision` block shapes and Claude Code's `hookSpecificOutput` deny; on every
 * other event a non-blank `context` string — for a `payload: claude` entry (`claude`), also
 * Claude Code's `hookSpecificOutput.additionalContext`, the shape its context hooks print.
 * Never throws.
 *
 * @example
 * parseHookOutput('pre_tool_call', '{"decision": "block", "reason": "no"}', logger) // { action: 'block', message: 'no' }
 */
export function parseHookOutput(event: string, stdout: string, logger: HookLogger, claude = false): ShellHookResult {
  const parsed = parseStdoutJson(event, stdout, logger);
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
  const obj = parsed.value;
  if (event === 'pre_tool_call') return blockFrom(obj) ?? rewriteFrom(obj);
  if (isContext(obj.context)) return { context: obj.context };
  const specific = claude && isPlainObject(obj.hookSpecificOutput) ? obj.hookSpecificOutput : undefined;
  return isContext(specific?.additionalContext) ? { context: specific.additionalContext } : undefined;
}

/** §3.7 step 5: a non-blank string, kept as written (not trimmed). */
function isContext(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The block directive of a `pre_tool_call` stdout object, if any (§3.7 step 4, §5.3). */
export function blockFrom(obj: Record<string, unknown>): BlockDirective | undefined {
  if (obj.action === 'block') return { action: 'block', message: chooseMessage(obj.message, obj.reason) };
  if (obj.decision === 'block') return { action: 'block', message: chooseMessage(obj.reason, obj.message) };
  const specific = obj.hookSpecificOutput;
  if (isPlainObject(specific) && specific.permissionDecision === 'deny') {
    const reason = specific.permissionDecisionReason;
    return { action: 'block', message: typeof reason === 'string' && reason !== '' ? reason : DEFAULT_BLOCK_MESSAGE };
  }
  return undefined;
}

/** A `pre_tool_call` rewrite (§5.10), when there is no block: `action: rewrite` first, then `updatedInput`. */
export function rewriteFrom(obj: Record<string, unknown>): RewriteResult | undefined {
  if (obj.action === 'rewrite' && isPlainObject(obj.args)) return { action: 'rewrite', args: obj.args };
  const specific = obj.hookSpecificOutput;
  if (isPlainObject(specific) && isPlainObject(specific.updatedInput))
    return { action: 'rewrite', args: specific.updatedInput, fromUpdatedInput: true };
  return undefined;
}

function chooseMessage(primary: unknown, secondary: unknown): string {
  const taken = isTruthy(primary) ? primary : secondary;
  return typeof taken === 'string' && taken !== '' ? taken : DEFAULT_BLOCK_MESSAGE;
}

export type ParsedStdout = { ok: true; value: unknown; empty: false } | { ok: false; empty: boolean };

/** Steps 1–2 of §3.7: trim; empty is no value; the whole text must be one JSON value. */
export function parseStdoutJson(event: string, stdout: string, logger: HookLogger): ParsedStdout {
  const text = stdout.trim();
  if (text === '') return { ok: false, empty: true };
  try {
    return { ok: true, value: JSON.parse(text), empty: false };
  } catch {
    logger.warn(`shell hook stdout for ${event} was not valid JSON: ${logExcerpt(text, 200)}`);
    return { ok: false, empty: false };
  }
}

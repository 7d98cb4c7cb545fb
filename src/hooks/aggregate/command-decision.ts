import { textOf } from '../text-of.ts';
import { isObject } from './is-object.ts';

/** What the gateway does with a slash command after its `command:<name>` hooks. */
export type CommandDecision =
  | { kind: 'run' }
  | { kind: 'deny'; reply: string }
  | { kind: 'handled'; reply?: string }
  | { kind: 'rewrite'; text: string };

/**
 * Absent or null counts as "" (hookgate treats null as empty, §5.7); the rest via String().
 * `undefined` when String() throws: such a result is ignored.
 */
function asText(value: unknown): string | undefined {
  return value === undefined || value === null ? '' : textOf(value);
}

/**
 * Folds `emitCollect('command:<name>')` results into one decision (hook-semantics §2.5):
 * `""`/`allow` continue (so `[allow, deny]` denies); `deny` stops with `message` or
 * ``Command `/<raw>` was blocked by a hook.``; `handled` stops with `message` or no reply;
 * `rewrite` with a non-empty `command_name` (leading `/`s removed) stops with
 * `/<name> <raw_args>` trimmed; anything else is ignored — also a result whose fields cannot
 * be read or turned into text (a throwing getter or `toString`). Nothing decisive → `run`.
 *
 * @example
 * commandDecision([{ decision: 'allow' }, { decision: ' DENY ' }], 'reset');
 * // { kind: 'deny', reply: 'Command `/reset` was blocked by a hook.' }
 */
export function commandDecision(results: readonly unknown[], rawCommand: string): CommandDecision {
  for (const result of results) {
    let decided: CommandDecision | undefined;
    try {
      decided = decisionOf(result, rawCommand);
    } catch {
      decided = undefined; // a getter that throws: the result is ignored like any other junk
    }
    if (decided) return decided;
  }
  return { kind: 'run' };
}

function decisionOf(result: unknown, rawCommand: string): CommandDecision | undefined {
  if (!isObject(result)) return undefined;
  const decision = asText(result.decision)?.trim().toLowerCase();
  const message = typeof result.message === 'string' && result.message !== '' ? result.message : undefined;
  switch (decision) {
    case 'deny':
      return { kind: 'deny', reply: message ?? `Command \`/${rawCommand}\` was blocked by a hook.` };
    case 'handled':
      return message === undefined ? { kind: 'handled' } : { kind: 'handled', reply: message };
    case 'rewrite': {
      const name = asText(result.command_name)?.trim().replace(/^\/+/, '');
      const args = asText(result.raw_args);
      if (!name || args === undefined) return undefined;
      return { kind: 'rewrite', text: `/${name} ${args.trim()}`.trim() };
    }
    default:
      return undefined;
  }
}

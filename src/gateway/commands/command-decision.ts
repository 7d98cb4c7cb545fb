export type CommandDecision =
  | { kind: 'run' }
  | { kind: 'deny'; reply: string }
  | { kind: 'handled'; reply?: string }
  | { kind: 'rewrite'; text: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * Folds the results of `command:<name>` hooks into one decision (hook-semantics §2.5):
 * `allow`/`""` continue, `deny` and `handled` stop (with `message` or the default deny
 * text), `rewrite` with a non-empty `command_name` stops with the new text, anything else
 * is ignored.
 *
 * @example
 * decideCommand([{ decision: 'deny' }], 'reset'); // { kind: 'deny', reply: 'Command `/reset` was blocked by a hook.' }
 */
export function decideCommand(results: readonly unknown[], rawCommand: string): CommandDecision {
  for (const result of results) {
    if (!isPlainObject(result)) continue;
    const decision = asText(result.decision).trim().toLowerCase();
    const message = typeof result.message === 'string' && result.message !== '' ? result.message : undefined;
    if (decision === '' || decision === 'allow') continue;
    if (decision === 'deny') return { kind: 'deny', reply: message ?? `Command \`/${rawCommand}\` was blocked by a hook.` };
    if (decision === 'handled') return message === undefined ? { kind: 'handled' } : { kind: 'handled', reply: message };
    if (decision === 'rewrite') {
      const name = asText(result.command_name).trim().replace(/^\/+/, '');
      if (name === '') continue;
      return { kind: 'rewrite', text: `/${name} ${asText(result.raw_args).trim()}`.trim() };
    }
  }
  return { kind: 'run' };
}

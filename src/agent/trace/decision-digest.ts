import { createHash } from 'node:crypto';
import { decisionContent } from './describe-decision.ts';

/**
 * A short fingerprint of what a decision hook's results give the call site (block message,
 * context, replacement text; see `decisionContent`), kept in traces in place of that text,
 * so `hookgate replay` can tell a changed context or transform without the trace keeping it
 * twice. `-` when the call site takes nothing.
 *
 * @example
 * decisionDigest('pre_tool_call', []) // '-'
 * decisionDigest('pre_tool_call', [{ action: 'block', message: 'no' }]) // 16 hex digits
 */
export function decisionDigest(hook: string, results: readonly unknown[]): string {
  const content = decisionContent(hook, results);
  return content === undefined ? '-' : createHash('sha256').update(content).digest('hex').slice(0, 16);
}

import { createToolsFunctionHandler, type ToolsFunctionContext } from '../agent/sandbox/tools-function-handler.ts';
import type { ToolsFunctionAnswer } from '../agent/sandbox/tools-function-protocol.ts';

/**
 * The tools λ: the chat's tools in an execution environment of their own session (tenant
 * isolation). Unlike the other three it builds no runtime: no config, secret, table, queue or
 * hook engine — it holds nothing of the deployment's, so there is nothing to reach from inside.
 *
 * @example
 * export const handler = createToolsFunction();
 */
export function createToolsFunction(): (event: unknown, context?: ToolsFunctionContext) => Promise<ToolsFunctionAnswer> {
  return createToolsFunctionHandler();
}

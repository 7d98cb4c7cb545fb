import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

/**
 * The seed's "tool-call audit log": an observer on pre_tool_call. It returns nothing, so it
 * never blocks; the line format follows the Hermes example (`TOOL_CALL session=… tool=… args=…`).
 */
export function register(ctx: PluginContext): void {
  const logFile = join(ctx.home, 'logs', 'tool-audit.log');
  ctx.register_hook('pre_tool_call', async function auditToolCall({ tool_name, args, task_id }) {
    const line = `${new Date().toISOString()} TOOL_CALL session=${String(task_id ?? '')} tool=${String(tool_name)} args=${JSON.stringify(args ?? {}).slice(0, 200)}\n`;
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(logFile, line);
    return null;
  });
}

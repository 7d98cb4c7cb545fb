import { renderWireJson } from '../../hooks/wire-json.ts';
import { hookAnswer } from '../../hooks/catalogue.ts';
import { postProcessTerminalOutput } from './terminal-output.ts';
import { ToolInputError, toolSpec, type Tool, type ToolContext } from './tool.ts';

export const TERMINAL_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 600;

/**
 * The `terminal` tool: a foreground shell command in the session's workspace, with a
 * timeout, in the session's sandbox (hook-semantics §5.9). `transform_terminal_output` may replace the raw output (first string, `""`
 * included, §1.8); the result then goes through truncation, ANSI stripping and redaction.
 * Result: wire JSON `{"output", "exit_code", "error"}`.
 */
export const terminalTool: Tool = {
  spec: toolSpec('terminal', 'Run a shell command in the session workspace (foreground, with a timeout).', {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The shell command to run.' },
      timeout: { type: 'integer', description: `Seconds before the command is killed (default ${TERMINAL_TIMEOUT_SECONDS}).` },
    },
    required: ['command'],
  }),
  async run(args: Record<string, unknown>, context: ToolContext): Promise<string> {
    const command = args.command;
    if (typeof command !== 'string' || command.trim() === '')
      throw new ToolInputError('terminal needs a non-empty "command" string');
    const timeout =
      typeof args.timeout === 'number' && args.timeout > 0
        ? Math.min(args.timeout, MAX_TIMEOUT_SECONDS)
        : TERMINAL_TIMEOUT_SECONDS;
    const run = await context.sandbox.run(
      context.workspaceSession,
      { op: 'exec', command, timeoutSeconds: timeout },
      context.signal,
    );
    let output = run.output;
    const results = await context.hooks.decide('transform_terminal_output', {
      command,
      output,
      returncode: run.exitCode,
      task_id: context.task_id,
      env_type: 'local',
    });
    const replacement = hookAnswer('transform_terminal_output', results).output;
    if (replacement !== undefined) output = replacement;
    return renderWireJson({
      output: postProcessTerminalOutput(output),
      exit_code: run.exitCode,
      error: run.timedOut ? `command timed out after ${timeout}s` : null,
    });
  },
};

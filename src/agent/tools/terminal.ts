import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { renderWireJson } from '../../hooks/wire-json.ts';
import { firstString } from '../../hooks/aggregate/index.ts';
import { terminalEnvironment } from './terminal-environment.ts';
import { postProcessTerminalOutput } from './terminal-output.ts';
import { ToolInputError, toolSpec, type Tool, type ToolContext } from './tool.ts';

export const TERMINAL_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 600;

/** What `runCommand` reports: combined output and exit code (124 on timeout, like `timeout(1)`). */
export interface CommandRun {
  output: string;
  exitCode: number;
  timedOut: boolean;
}

/**
 * Runs `command` with `/bin/sh -c` in `cwd` with `env` (default: the terminal environment,
 * terminal-environment.ts), stdout and stderr combined, in its own process group so a
 * timeout kills the whole tree.
 *
 * @example
 * const run = await runCommand('echo hi', '/tmp', 10); // { output: 'hi\n', exitCode: 0, timedOut: false }
 */
export function runCommand(
  command: string,
  cwd: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = terminalEnvironment(),
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutSeconds * 1000);
    signal?.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      const output = Buffer.concat(chunks).toString('utf8');
      resolve({ output, exitCode: timedOut ? 124 : (code ?? (sig ? 128 + 9 : 1)), timedOut });
    });
  });
}

/**
 * The `terminal` tool: a foreground shell command in the session's workspace, with a
 * timeout, with the terminal environment only (no secrets). `transform_terminal_output` may replace the raw output (first string, `""`
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
    if (typeof command !== 'string' || command.trim() === '') throw new ToolInputError('terminal needs a non-empty "command" string');
    const timeout = typeof args.timeout === 'number' && args.timeout > 0 ? Math.min(args.timeout, MAX_TIMEOUT_SECONDS) : TERMINAL_TIMEOUT_SECONDS;
    await mkdir(context.workspace, { recursive: true });
    const env = terminalEnvironment(context.policy?.terminalEnvPassthrough);
    const run = await runCommand(command, context.workspace, timeout, context.signal, env);
    let output = run.output;
    const results = await context.hooks.decide('transform_terminal_output', {
      command,
      output,
      returncode: run.exitCode,
      task_id: context.task_id,
      env_type: 'local',
    });
    const replacement = firstString(results);
    if (replacement !== undefined) output = replacement;
    return renderWireJson({
      output: postProcessTerminalOutput(output),
      exit_code: run.exitCode,
      error: run.timedOut ? `command timed out after ${timeout}s` : null,
    });
  },
};

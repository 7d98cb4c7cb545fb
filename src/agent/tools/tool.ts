import type { ToolSpec } from '../model/chat-wire.ts';
import type { TurnHooks } from '../turn/turn-hooks.ts';
import { HookgateError } from '../../errors/hookgate-error.ts';
import type { SandboxSession, ToolSandbox } from '../sandbox/tool-sandbox.ts';

/** What a tool may use while it runs: the session's sandbox and the turn's hooks. */
export interface ToolContext {
  /** Where the tool's work runs (hook-semantics §5.9): every command and file access goes through it. */
  sandbox: ToolSandbox;
  /** Whose workspace: the session's (a delegated child works in its parent's). */
  workspaceSession: SandboxSession;
  hooks: TurnHooks;
  task_id: string;
  session_id: string;
  turn_id: string;
  /** The agent's own subagent id when it is itself a child, else null. */
  subagent_id?: string | null;
  /** Runs delegated children; absent where delegation is not allowed. */
  delegate?: import('./delegate-task.ts').DelegateRunner;
  signal?: AbortSignal;
}

/** One tool the model can call. `run` returns the result string the model sees. */
export interface Tool {
  readonly spec: ToolSpec;
  run(args: Record<string, unknown>, context: ToolContext): Promise<string>;
}

/** A tool failed in a way the model should hear about; becomes `{"error": message}`. */
export class ToolInputError extends HookgateError {
  override readonly name = 'ToolInputError';
}

/** Builds a `ToolSpec` from a name, a description and a JSON-Schema object for the args. */
export function toolSpec(name: string, description: string, parameters: Record<string, unknown>): ToolSpec {
  return { type: 'function', function: { name, description, parameters } };
}

import { HookgateError } from '../../errors/hookgate-error.ts';

/**
 * One thing a chat user's tool call asks of the sandbox (hook-semantics §5.9): run a command,
 * read, write or patch a file. Paths are relative to the session workspace, or absolute inside
 * the sandbox's own view of the filesystem (where the workspace is the only writable place).
 */
export type SandboxRequest =
  | { op: 'exec'; command: string; timeoutSeconds: number }
  | { op: 'read'; path: string; limitBytes: number }
  | { op: 'write'; path: string; content: string }
  | { op: 'patch'; path: string; oldString: string; newString: string; replaceAll: boolean };

/** What each request answers. */
export interface SandboxResults {
  /** Combined stdout and stderr; exit code 124 on timeout, like `timeout(1)`. */
  exec: { output: string; exitCode: number; timedOut: boolean };
  read: { content: string; truncated: boolean };
  write: { bytesWritten: number };
  patch: { replacements: number };
}

export type SandboxResultOf<R extends SandboxRequest> = SandboxResults[R['op']];

/** Which session's workspace a request runs in: one workspace per session, never shared. */
export interface SandboxSession {
  sessionId: string;
}

/**
 * The one seam every tool a chat user can cause runs through (terminal, read_file,
 * write_file, patch, and delegated children's). Hooks around the call stay outside it.
 *
 * @example
 * const run = await sandbox.run({ sessionId }, { op: 'exec', command: 'ls', timeoutSeconds: 60 });
 */
export interface ToolSandbox {
  /** `bwrap` (Linux namespaces), `lambda` (the tools function), `none` (no isolation, operator's choice), `unavailable`. */
  readonly kind: 'bwrap' | 'lambda' | 'none' | 'unavailable';
  run<R extends SandboxRequest>(session: SandboxSession, request: R, signal?: AbortSignal): Promise<SandboxResultOf<R>>;
}

/**
 * A request the sandbox refused or could not do in a way the model should hear about (a
 * missing file, an ambiguous patch, no sandbox on this host): becomes `{"error": message}`.
 */
export class SandboxError extends HookgateError {
  override readonly name = 'SandboxError';
}

import { terminalEnvironment } from './terminal-environment.ts';
import type { FileBoundary } from './file-boundary.ts';
import { runInWorkspace } from './run-in-workspace.ts';
import type { ToolSandbox } from './tool-sandbox.ts';
import { workspaceDir } from './workspace-dir.ts';

export interface UnsandboxedOptions {
  /** Session workspaces live under it (`<root>/<session id>`). */
  workspaceRoot: string;
  /** `terminal.env_passthrough`: variables passed besides the terminal allowlist. */
  envPassthrough?: readonly string[];
  boundary?: FileBoundary;
}

/**
 * `terminal.sandbox: none`: the tools run in hookgate's own process, user, filesystem and
 * network, as the first release did — only the environment allowlist and the file boundary
 * stand between a chat user and the operator. An explicit, warned-about choice (docs/security.md).
 *
 * @example
 * const sandbox = createUnsandboxed({ workspaceRoot: '/tmp/hookgate-workspaces' });
 */
export function createUnsandboxed(options: UnsandboxedOptions): ToolSandbox {
  const boundary = options.boundary ?? { allowedRoots: [] };
  return {
    kind: 'none',
    run(session, request, signal) {
      const env = terminalEnvironment(options.envPassthrough);
      return runInWorkspace(workspaceDir(options.workspaceRoot, session.sessionId), request, {
        env,
        boundary,
        ...(signal ? { signal } : {}),
      });
    },
  };
}

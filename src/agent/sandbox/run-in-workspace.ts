import { mkdir } from 'node:fs/promises';
import { applyPatch } from './apply-patch.ts';
import { readToolFile, resolveToolPath, writeToolFile, type FileBoundary } from './file-boundary.ts';
import { runCommand } from './run-command.ts';
import type { SandboxRequest, SandboxResultOf, SandboxResults } from './tool-sandbox.ts';

/** What a request runs with besides its workspace. */
export interface WorkspaceRunOptions {
  /** The command's whole environment (the terminal environment, terminal-environment.ts). */
  env: NodeJS.ProcessEnv;
  /** Where the file tools may go besides the workspace. */
  boundary: FileBoundary;
  signal?: AbortSignal;
}

/**
 * Carries out one sandbox request directly in `workspace`, in this process's own view of the
 * machine: no isolation of its own. It is the inside of every sandbox — what runs in the
 * Lambda tools function, and the whole of `terminal.sandbox: none`.
 *
 * @example
 * const run = await runInWorkspace('/tmp/ws', { op: 'exec', command: 'ls', timeoutSeconds: 60 }, { env, boundary });
 */
export async function runInWorkspace<R extends SandboxRequest>(
  workspace: string,
  request: R,
  options: WorkspaceRunOptions,
): Promise<SandboxResultOf<R>> {
  await mkdir(workspace, { recursive: true });
  return (await dispatch(workspace, request, options)) as SandboxResultOf<R>;
}

async function dispatch(
  workspace: string,
  request: SandboxRequest,
  options: WorkspaceRunOptions,
): Promise<SandboxResults[SandboxRequest['op']]> {
  switch (request.op) {
    case 'exec':
      return runCommand(request.command, workspace, request.timeoutSeconds, options.signal, options.env);
    case 'read': {
      const content = await readToolFile(await resolveToolPath(request.path, workspace, options.boundary));
      return { content: content.slice(0, request.limitBytes), truncated: content.length > request.limitBytes };
    }
    case 'write':
      await writeToolFile(await resolveToolPath(request.path, workspace, options.boundary), request.content);
      return { bytesWritten: Buffer.byteLength(request.content) };
    case 'patch': {
      const path = await resolveToolPath(request.path, workspace, options.boundary);
      const patched = applyPatch(
        await readToolFile(path),
        request.oldString,
        request.newString,
        request.replaceAll,
        request.path,
      );
      await writeToolFile(path, patched.content);
      return { replacements: patched.replacements };
    }
  }
}

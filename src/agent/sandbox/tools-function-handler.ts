import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PresignedWorkspace } from './presigned-workspace.ts';
import { runInWorkspace } from './run-in-workspace.ts';
import { terminalEnvironment } from './terminal-environment.ts';
import { SandboxError } from './tool-sandbox.ts';
import {
  MAX_EXEC_OUTPUT_CHARS,
  SandboxResultSchemas,
  ToolsFunctionEventSchema,
  tenantIdOf,
  type ToolsFunctionAnswer,
} from './tools-function-protocol.ts';
import type { WorkspaceLimits } from './workspace-archive.ts';

export interface ToolsFunctionOptions {
  /** Where this execution environment keeps the workspace. Default `<tmpdir>/hookgate-workspace`. */
  dir?: string;
  /** Whose variables the terminal environment is drawn from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  limits?: WorkspaceLimits;
}

/** What of Lambda's invocation context the handler reads. */
export interface ToolsFunctionContext {
  /** The invocation's tenant id (tenant isolation): must be the event's session. */
  tenantId?: string;
  getRemainingTimeInMillis?: () => number;
}

/**
 * The tools function (functions/tools.ts): carries out one sandbox request in the session's
 * workspace inside a Lambda execution environment that serves that session alone (tenant
 * isolation, tenant id = session id). Per call: validate the event (zod); restore the workspace
 * from its presigned GET unless the copy in /tmp is current; run the request with
 * `runInWorkspace` and the terminal environment only (the function's own variables, its role's
 * credentials among them, are not passed); upload the workspace through the presigned PUT when
 * it changed; answer `{ok, result}` or `{ok: false, error}` for a refusal the model should hear.
 * Anything else throws: a Lambda function error, which the turn's lambda sandbox reports.
 *
 * @example
 * export const handler = createToolsFunctionHandler();
 */
export function createToolsFunctionHandler(
  options: ToolsFunctionOptions = {},
): (event: unknown, context?: ToolsFunctionContext) => Promise<ToolsFunctionAnswer> {
  const workspace = new PresignedWorkspace(options.dir ?? join(tmpdir(), 'hookgate-workspace'), options.limits);
  const env = terminalEnvironment([], options.env ?? process.env);
  return async (event, context) => {
    const parsed = ToolsFunctionEventSchema.safeParse(event);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: `the tools function got a malformed request (${issue?.path.join('.') || 'event'}: ${issue?.message})`,
      };
    }
    const { sessionId, request, workspace: urls } = parsed.data;
    // Tenant isolation keeps one session per execution environment; a mismatch is a bug to refuse, not to run.
    if (context?.tenantId !== undefined && context.tenantId !== tenantIdOf(sessionId)) {
      return { ok: false, error: 'the tools function was invoked for another session than the request names; nothing was run' };
    }
    try {
      await workspace.restore(sessionId, urls.getUrl);
      const result = await runInWorkspace(workspace.dir, request, {
        // HOME is the workspace: nothing else is kept between calls.
        env: { ...env, HOME: workspace.dir, TMPDIR: tmpdir() },
        boundary: { allowedRoots: [] },
      });
      if (request.op !== 'read') await workspace.save(urls.putUrl);
      return {
        ok: true,
        result: SandboxResultSchemas[request.op].parse(request.op === 'exec' ? capOutput(result as { output: string }) : result),
      };
    } catch (error) {
      if (error instanceof SandboxError) return { ok: false, error: error.message };
      // A missing file, a directory read as a file…: the model's to hear, worded as the unsandboxed tools word it.
      const errno = error as NodeJS.ErrnoException;
      if (typeof errno.code === 'string' && errno.syscall) {
        return { ok: false, error: errno.code === 'ENOENT' ? `No such file or directory: ${errno.path ?? ''}` : errno.message };
      }
      throw error;
    }
  };
}

/** Head and tail of a huge output (the terminal tool cuts further): the answer must fit Lambda's response cap. */
function capOutput<T extends { output: string }>(run: T): T {
  if (run.output.length <= MAX_EXEC_OUTPUT_CHARS) return run;
  const half = MAX_EXEC_OUTPUT_CHARS / 2;
  const cut = run.output.length - MAX_EXEC_OUTPUT_CHARS;
  return {
    ...run,
    output: `${run.output.slice(0, half)}\n… [${cut} characters cut by the tools function] …\n${run.output.slice(-half)}`,
  };
}

import { createHash } from 'node:crypto';
import * as z from '../../validation/zod.ts';

/**
 * What the turn function and the tools function say to each other (docs/deploy.md, "The tools
 * function"): one sandbox request, and where that session's workspace archive is — a presigned
 * GET/PUT pair, so the tools function needs no S3 permission of its own. Both sides validate.
 */

/** Where session workspace archives live in the workspace bucket: `workspaces/<sha256 of the session id>.tar.gz`. */
export const WORKSPACE_KEY_PREFIX = 'workspaces/';

/** The gzip'd tar of a workspace may be at most this big (S3 object and download). */
export const MAX_WORKSPACE_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** Its files may add up to at most this (checked when packing, and again while unpacking: a gzip bomb stops here). */
export const MAX_WORKSPACE_UNPACKED_BYTES = 256 * 1024 * 1024;
/** And hold at most this many entries. */
export const MAX_WORKSPACE_ENTRIES = 20_000;
/**
 * The longest a command runs in the tools function: its timeout (120 s, the turn's) less the
 * time to restore and save the workspace. A longer `terminal` timeout is cut to this.
 */
export const TOOLS_EXEC_MAX_SECONDS = 90;

export const SandboxRequestSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('exec'),
    command: z.string().check(z.minLength(1)),
    timeoutSeconds: z.number().check(z.positive(), z.lte(TOOLS_EXEC_MAX_SECONDS)),
  }),
  z.object({ op: z.literal('read'), path: z.string(), limitBytes: z.int().check(z.positive()) }),
  z.object({ op: z.literal('write'), path: z.string(), content: z.string() }),
  z.object({ op: z.literal('patch'), path: z.string(), oldString: z.string(), newString: z.string(), replaceAll: z.boolean() }),
]);

export const ToolsFunctionEventSchema = z.object({
  /** The session, which is also the invocation's tenant id: the tools function refuses a mismatch. */
  sessionId: z.string().check(z.minLength(1)),
  request: SandboxRequestSchema,
  workspace: z.object({
    getUrl: z.url({ protocol: /^https?$/ }),
    putUrl: z.url({ protocol: /^https?$/ }),
  }),
});
export type ToolsFunctionEvent = z.infer<typeof ToolsFunctionEventSchema>;

/** The result of each op, as `SandboxResults` (tool-sandbox.ts) has it. */
export const SandboxResultSchemas = {
  exec: z.object({ output: z.string(), exitCode: z.int(), timedOut: z.boolean() }),
  read: z.object({ content: z.string(), truncated: z.boolean() }),
  write: z.object({ bytesWritten: z.int().check(z.nonnegative()) }),
  patch: z.object({ replacements: z.int().check(z.nonnegative()) }),
} as const;

/**
 * `ok: false` is a refusal the model should hear about (a `SandboxError` inside: a path outside
 * the workspace, an ambiguous patch, a workspace over its cap). A crash is a Lambda function error instead.
 */
export const ToolsFunctionAnswerSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ToolsFunctionAnswer = z.infer<typeof ToolsFunctionAnswerSchema>;

/**
 * The Lambda tenant id of a session: the session id itself (tenant id = session id) when it is
 * plainly safe as one (hookgate's are `YYYYMMDD_HHMMSS_<hex>`), a hash of it otherwise — still
 * one tenant per session.
 *
 * @example
 * tenantIdOf('20260101_120000_0a1b2c3d') // '20260101_120000_0a1b2c3d'
 */
export function tenantIdOf(sessionId: string): string {
  return /^[A-Za-z0-9._-]{1,64}$/.test(sessionId)
    ? sessionId
    : `s-${createHash('sha256').update(sessionId).digest('hex').slice(0, 40)}`;
}

/** An `exec` answer keeps at most this much output (head and tail), well inside Lambda's 6 MB response. */
export const MAX_EXEC_OUTPUT_CHARS = 1_000_000;

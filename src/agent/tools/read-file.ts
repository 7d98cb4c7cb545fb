import { renderWireJson } from '../../hooks/wire-json.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';

/** Files larger than this are cut, like terminal output. */
const READ_LIMIT = 100 * 1024;

/**
 * `read_file`: a text file's content, read inside the session's sandbox. Result: wire JSON
 * `{"path", "content", "truncated"}`.
 */
export const readFileTool: Tool = {
  spec: toolSpec('read_file', 'Read a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  async run(args, context) {
    const path = pathArg(args.path);
    const read = await context.sandbox.run(
      context.workspaceSession,
      { op: 'read', path, limitBytes: READ_LIMIT },
      context.signal,
    );
    return renderWireJson({ path, content: read.content, truncated: read.truncated });
  },
};

/** The `path` argument every file tool takes: a non-empty string without NUL. */
export function pathArg(path: unknown): string {
  if (typeof path !== 'string' || path.trim() === '') throw new ToolInputError('a non-empty "path" string is required');
  if (path.includes('\0')) throw new ToolInputError('the path contains a NUL character');
  return path;
}

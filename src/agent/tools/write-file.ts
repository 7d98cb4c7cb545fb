import { renderWireJson } from '../../hooks/wire-json.ts';
import { pathArg } from './read-file.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';

/** `write_file`: creates or replaces a file (parents created) inside the session's sandbox. Result: `{"path", "bytes_written"}`. */
export const writeFileTool: Tool = {
  spec: toolSpec('write_file', 'Create or overwrite a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  }),
  async run(args, context) {
    const path = pathArg(args.path);
    if (typeof args.content !== 'string') throw new ToolInputError('write_file needs a "content" string');
    const written = await context.sandbox.run(
      context.workspaceSession,
      { op: 'write', path, content: args.content },
      context.signal,
    );
    return renderWireJson({ path, bytes_written: written.bytesWritten });
  },
};

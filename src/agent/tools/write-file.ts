import { renderWireJson } from '../../hooks/wire-json.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';
import { resolveToolPath, writeToolFile } from './file-boundary.ts';
import { DEFAULT_TOOL_POLICY } from './tool-policy.ts';

/** `write_file`: creates or replaces a file (parents created) inside the file boundary. Result: `{"path", "bytes_written"}`. */
export const writeFileTool: Tool = {
  spec: toolSpec('write_file', 'Create or overwrite a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  }),
  async run(args, context) {
    const path = await resolveToolPath(args.path, context.workspace, context.policy ?? DEFAULT_TOOL_POLICY);
    if (typeof args.content !== 'string') throw new ToolInputError('write_file needs a "content" string');
    await writeToolFile(path, args.content);
    return renderWireJson({ path: args.path, bytes_written: Buffer.byteLength(args.content) });
  },
};

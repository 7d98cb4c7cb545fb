import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { renderWireJson } from '../../hooks/wire-json.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';
import { workspacePath } from './workspace-path.ts';

/** `write_file`: creates or replaces a file (parents created). Result: `{"path", "bytes_written"}`. */
export const writeFileTool: Tool = {
  spec: toolSpec('write_file', 'Create or overwrite a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  }),
  async run(args, context) {
    const path = workspacePath(context.workspace, args.path);
    if (typeof args.content !== 'string') throw new ToolInputError('write_file needs a "content" string');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, args.content, 'utf8');
    return renderWireJson({ path: args.path, bytes_written: Buffer.byteLength(args.content) });
  },
};

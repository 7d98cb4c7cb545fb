import { readFile } from 'node:fs/promises';
import { renderWireJson } from '../../hooks/wire-json.ts';
import { toolSpec, type Tool } from './tool.ts';
import { workspacePath } from './workspace-path.ts';

/** Files larger than this are cut, like terminal output. */
const READ_LIMIT = 100 * 1024;

/** `read_file`: a text file's content. Result: wire JSON `{"path", "content", "truncated"}`. */
export const readFileTool: Tool = {
  spec: toolSpec('read_file', 'Read a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  async run(args, context) {
    const path = workspacePath(context.workspace, args.path);
    const content = await readFile(path, 'utf8');
    return renderWireJson({ path: args.path, content: content.slice(0, READ_LIMIT), truncated: content.length > READ_LIMIT });
  },
};

import { renderWireJson } from '../../hooks/wire-json.ts';
import { toolSpec, type Tool } from './tool.ts';
import { readToolFile, resolveToolPath } from './file-boundary.ts';
import { DEFAULT_TOOL_POLICY } from './tool-policy.ts';

/** Files larger than this are cut, like terminal output. */
const READ_LIMIT = 100 * 1024;

/**
 * `read_file`: a text file's content, inside the file boundary (file-boundary.ts). Result:
 * wire JSON `{"path", "content", "truncated"}`.
 */
export const readFileTool: Tool = {
  spec: toolSpec('read_file', 'Read a text file (relative paths are in the session workspace).', {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  async run(args, context) {
    const path = await resolveToolPath(args.path, context.workspace, context.policy ?? DEFAULT_TOOL_POLICY);
    const content = await readToolFile(path);
    return renderWireJson({ path: args.path, content: content.slice(0, READ_LIMIT), truncated: content.length > READ_LIMIT });
  },
};

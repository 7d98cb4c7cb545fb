import { renderWireJson } from '../../hooks/wire-json.ts';
import { pathArg } from './read-file.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';

/**
 * `patch`: replaces `old_string` with `new_string` in a file, inside the session's sandbox. The
 * old string must occur exactly once unless `replace_all` is true (apply-patch.ts).
 */
export const patchTool: Tool = {
  spec: toolSpec('patch', 'Replace an exact snippet of a file with new text.', {
    type: 'object',
    properties: {
      path: { type: 'string' },
      old_string: { type: 'string' },
      new_string: { type: 'string' },
      replace_all: { type: 'boolean' },
    },
    required: ['path', 'old_string', 'new_string'],
  }),
  async run(args, context) {
    const path = pathArg(args.path);
    const { old_string: oldString, new_string: newString } = args;
    if (typeof oldString !== 'string' || oldString === '') throw new ToolInputError('patch needs a non-empty "old_string"');
    if (typeof newString !== 'string') throw new ToolInputError('patch needs a "new_string" string');
    const request = { op: 'patch', path, oldString, newString, replaceAll: args.replace_all === true } as const;
    const patched = await context.sandbox.run(context.workspaceSession, request, context.signal);
    return renderWireJson({ path, replacements: patched.replacements });
  },
};

import { renderWireJson } from '../../hooks/wire-json.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';
import { readToolFile, resolveToolPath, writeToolFile } from './file-boundary.ts';
import { DEFAULT_TOOL_POLICY } from './tool-policy.ts';

/**
 * `patch`: replaces `old_string` with `new_string` in a file. The old string must occur
 * exactly once unless `replace_all` is true, so an ambiguous edit is an error, not a guess.
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
    const path = await resolveToolPath(args.path, context.workspace, context.policy ?? DEFAULT_TOOL_POLICY);
    const { old_string: oldText, new_string: newText } = args;
    if (typeof oldText !== 'string' || oldText === '') throw new ToolInputError('patch needs a non-empty "old_string"');
    if (typeof newText !== 'string') throw new ToolInputError('patch needs a "new_string" string');
    const content = await readToolFile(path);
    const count = content.split(oldText).length - 1;
    if (count === 0) throw new ToolInputError(`"old_string" was not found in ${String(args.path)}`);
    if (count > 1 && args.replace_all !== true) {
      throw new ToolInputError(`"old_string" occurs ${count} times in ${String(args.path)}; make it unique or set replace_all`);
    }
    const updated = args.replace_all === true ? content.split(oldText).join(newText) : content.replace(oldText, () => newText);
    await writeToolFile(path, updated);
    return renderWireJson({ path: args.path, replacements: args.replace_all === true ? count : 1 });
  },
};

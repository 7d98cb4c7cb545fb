import { SandboxError } from './tool-sandbox.ts';

/**
 * The `patch` tool's edit on a file's text: `oldString` must occur exactly once unless
 * `replaceAll`, so an ambiguous edit is an error, not a guess. `label` names the file in errors.
 *
 * @example
 * applyPatch('a b a', 'b', 'c', false, 'f.txt') // { content: 'a c a', replacements: 1 }
 */
export function applyPatch(
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  label: string,
): { content: string; replacements: number } {
  if (oldString === '') throw new SandboxError('patch needs a non-empty "old_string"');
  const count = content.split(oldString).length - 1;
  if (count === 0) throw new SandboxError(`"old_string" was not found in ${label}`);
  if (count > 1 && !replaceAll)
    throw new SandboxError(`"old_string" occurs ${count} times in ${label}; make it unique or set replace_all`);
  return replaceAll
    ? { content: content.split(oldString).join(newString), replacements: count }
    : { content: content.replace(oldString, () => newString), replacements: 1 };
}

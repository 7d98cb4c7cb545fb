import { isAbsolute, resolve } from 'node:path';
import { ToolInputError } from './tool.ts';

/** A tool's `path` argument: relative paths are inside the session workspace. */
export function workspacePath(workspace: string, path: unknown): string {
  if (typeof path !== 'string' || path.trim() === '') throw new ToolInputError('a non-empty "path" string is required');
  return isAbsolute(path) ? path : resolve(workspace, path);
}

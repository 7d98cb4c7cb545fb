import { join } from 'node:path';

/**
 * The directory of a session's workspace under `root`: the session id with every character
 * outside `[A-Za-z0-9._-]` replaced, so an id can never name a path outside `root`.
 *
 * @example
 * workspaceDir('/tmp/ws', 'telegram:12/../x') // '/tmp/ws/telegram_12_.._x'
 * workspaceDir('/tmp/ws', '..') // '/tmp/ws/_..'
 */
export function workspaceDir(root: string, sessionId: string): string {
  const name = sessionId.replace(/[^A-Za-z0-9._-]/g, '_');
  // `.` and `..` (and an empty id) would name the root or its parent.
  return join(root, /^\.*$/.test(name) ? `_${name}` : name);
}

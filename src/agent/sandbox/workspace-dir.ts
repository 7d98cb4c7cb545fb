import { join } from 'node:path';

/**
 * The directory of a session's workspace under `root`: the session id with every character
 * outside `[A-Za-z0-9._-]` replaced, so an id can never name a path outside `root`.
 *
 * @example
 * workspaceDir('/tmp/ws', 'telegram:12/../x') // '/tmp/ws/telegram_12_.._x'
 */
export function workspaceDir(root: string, sessionId: string): string {
  return join(root, sessionId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The hooks home (hook-semantics §0.1): HOOKGATE_HOME, else HERMES_HOME, else ~/.hermes.
 * An empty variable counts as unset.
 */
export function resolveHooksHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HOOKGATE_HOME || env.HERMES_HOME;
  return fromEnv ? fromEnv : join(homedir(), '.hermes');
}

import { appendFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The hooks home as hookgate resolves it (HOOKGATE_HOME, HERMES_HOME, ~/.hermes). */
function hooksHome(): string {
  return process.env.HOOKGATE_HOME || process.env.HERMES_HOME || join(homedir(), '.hermes');
}

/** The seed's "my-hook": one JSON line per agent event, the context spread into it. */
export async function handle(eventType: string, context: Record<string, unknown>): Promise<void> {
  const dir = join(hooksHome(), 'logs');
  await mkdir(dir, { recursive: true });
  const entry = { timestamp: new Date().toISOString(), event: eventType, ...context };
  await appendFile(join(dir, 'activity.log'), `${JSON.stringify(entry)}\n`);
}

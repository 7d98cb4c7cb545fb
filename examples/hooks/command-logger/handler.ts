/**
 * command-logger — the seed's "command usage logger" gateway hook.
 *
 * Hook: the `command:*` gateway event (hook-semantics §2.5), raised for every slash command
 * (`/new`, `/model gpt-4`, `/approve`, plugin commands…) before it runs.
 * Enable: gateway hooks need no switch; this directory in `<hooks home>/hooks/` is enough.
 * Writes: one JSON line per command to `<hooks home>/logs/command_usage.jsonl`
 * (`{"ts","command","args","platform","user"}`; `examples/logs/` when run from the examples).
 *
 * It returns nothing, so it never decides anything: a `command:*` handler that returns
 * `{decision: …}` can deny or rewrite the command (see hooks/command-policy).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { GatewayHandler } from '../../../src/index.ts';

/** The hooks home as hookgate resolves it (HOOKGATE_HOME, HERMES_HOME, ~/.hermes). */
function hooksHome(): string {
  return process.env.HOOKGATE_HOME || process.env.HERMES_HOME || join(homedir(), '.hermes');
}

export const handle: GatewayHandler = async (_eventType, context) => {
  const dir = join(hooksHome(), 'logs');
  await mkdir(dir, { recursive: true });
  const entry = {
    ts: new Date().toISOString(),
    command: context.command,
    args: context.args,
    platform: context.platform,
    user: context.user_id,
  };
  await appendFile(join(dir, 'command_usage.jsonl'), `${JSON.stringify(entry)}\n`);
};

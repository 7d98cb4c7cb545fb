/**
 * subagent-log — the seed's "log orchestrator activity" plugin (the shell-hook version is
 * agent-hooks/log-subagent.sh).
 *
 * Hook: `subagent_stop` (hook-semantics §1.14), once per child of a `delegate_task` call, after
 * all of that call's children finished, one after another.
 * Enable: `plugins.enabled: [subagent-log]` in config.yaml (on in examples/config.yaml).
 * Writes: `<ISO time> SUBAGENT parent=<session> role=<role|None> status=<status> duration_ms=<n>`
 * to `<hooks home>/logs/subagent.log` (`examples/logs/` from the examples). Keep it fast: with
 * wide delegations it fires many times per turn.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  ctx.register_hook('subagent_stop', async function logSubagent({ parent_session_id, child_role, child_status, duration_ms }) {
    const line = `SUBAGENT parent=${String(parent_session_id)} role=${child_role == null ? 'None' : String(child_role)} status=${String(child_status)} duration_ms=${Number(duration_ms ?? 0)}`;
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(join(ctx.home, 'logs', 'subagent.log'), `${new Date().toISOString()} ${line}\n`);
  });
}

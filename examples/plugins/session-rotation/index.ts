/**
 * session-rotation — the seed's use of `on_session_finalize` and `on_session_reset`:
 * a last word for the session that is going away and a "session rotated" event for the new one.
 *
 * Hooks (hook-semantics §1.13.1): on `/new` or `/reset` the gateway fires
 * `on_session_finalize` with the old session id (also on shutdown and idle expiry, with
 * `reason` `shutdown` / `session_expired`), then `on_session_reset` with the new id.
 * Enable: `plugins.enabled: [session-rotation]` in config.yaml (on in examples/config.yaml).
 * Writes: one line per call to `<hooks home>/logs/session-rotation.log`:
 * `FINALIZE session=<old> platform=<p> reason=<r>` and
 * `RESET session=<new> platform=<p> old=<old> reason=<r>`. A real plugin would flush or drop
 * whatever it keeps per session id at FINALIZE and open a fresh bucket at RESET.
 *
 * Both are observers: emitted in that order, they run shortly after in the observer consumer,
 * where two events may run in either order (docs/architecture.md), so do not rely on FINALIZE
 * having run when RESET does; key your state by the session id each one names.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  const log = async (line: string) => {
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(join(ctx.home, 'logs', 'session-rotation.log'), `${new Date().toISOString()} ${line}\n`);
  };

  ctx.register_hook('on_session_finalize', async function finalizeSession({ session_id, platform, reason }) {
    await log(
      `FINALIZE session=${String(session_id ?? 'none')} platform=${String(platform ?? '')} reason=${String(reason ?? '')}`,
    );
  });

  ctx.register_hook('on_session_reset', async function sessionRotated({ session_id, platform, old_session_id, reason }) {
    await log(
      `RESET session=${String(session_id)} platform=${String(platform ?? '')} old=${String(old_session_id ?? 'none')} reason=${String(reason ?? '')}`,
    );
  });
}

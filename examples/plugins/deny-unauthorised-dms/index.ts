/**
 * deny-unauthorised-dms — the seed's "silently drop unauthorised DMs, no pairing code" plugin.
 *
 * Hook: `pre_gateway_dispatch` (hook-semantics §1.12), once per inbound message, before
 * authorisation, commands and the agent. Returning `{action: 'skip', reason}` drops the
 * message: no reply, no "not allowed" answer, no turn. hookgate logs
 * `pre_gateway_dispatch skipped the message: unauthorized-dm` with the platform and chat.
 * Enable: `plugins.enabled: [deny-unauthorised-dms]` in config.yaml, and list who may DM the bot
 * in DM_ALLOWED_USERS as `platform:user_id` pairs, comma-separated
 * (`DM_ALLOWED_USERS=telegram:123456,local:me`). With it unset or empty every DM is dropped
 * (a log line says so at load). Group chats are not affected.
 * It is OFF in examples/config.yaml: the local chat is a DM, so it would silence
 * `hookgate dev --home examples`. Its test enables it in a copy of the home.
 * Writes no file.
 *
 * hookgate's own HOOKGATE_ALLOWED_USERS refuses strangers everywhere with a reply (or
 * silently, with HOOKGATE_UNAUTHORISED_REPLY=silent); this shows the same as a policy you own.
 */
import type { PluginContext } from '../../../src/index.ts';

/** The part of the normalised inbound message (`event` kwarg) this policy reads. */
interface InboundSource {
  platform?: unknown;
  user_id?: unknown;
  chat_type?: unknown;
}

function approvedUsers(): Set<string> {
  return new Set(
    (process.env.DM_ALLOWED_USERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

export function register(ctx: PluginContext): void {
  if (approvedUsers().size === 0)
    ctx.logger.info('deny-unauthorised-dms: DM_ALLOWED_USERS is empty, every direct message is dropped');
  ctx.register_hook('pre_gateway_dispatch', function denyUnauthorizedDms({ event }) {
    const source = ((event as { source?: InboundSource } | undefined)?.source ?? {}) as InboundSource;
    if (source.chat_type !== 'dm') return null;
    if (approvedUsers().has(`${String(source.platform)}:${String(source.user_id)}`)) return null;
    return { action: 'skip', reason: 'unauthorized-dm' };
  });
}

/**
 * ambient-buffer — the seed's "buffer ambient messages, rewrite into one prompt when
 * mentioned" plugin: a listen-only chat that answers only when addressed.
 *
 * Hook: `pre_gateway_dispatch` (hook-semantics §1.12), once per inbound message, before
 * authorisation, commands and the agent. A message that does not mention the bot is kept and
 * dropped (`{action: 'skip', reason: 'ambient-buffered'}`: no reply, no turn). A message that
 * does is replaced (`{action: 'rewrite', text}`) by the kept messages and itself, one per line,
 * and the buffer is emptied: the agent answers them all at once.
 * Enable: `plugins.enabled: [ambient-buffer]` in config.yaml. The bot's mention is
 * `@<AMBIENT_BOT_NAME>` (default `@hermes`), matched case-insensitively anywhere in the text.
 * It is OFF in examples/config.yaml: it would keep `hookgate dev --home examples` from
 * answering anything without `@hermes`. Its test enables it in a copy of the home.
 * Writes no file; the buffer is in memory, per platform and chat.
 *
 * As in the seed the buffer lives in this process: right for `hookgate dev`. In AWS each
 * gateway Lambda instance would keep its own buffer, so keep it in a table there.
 */
import type { PluginContext } from '../../../src/index.ts';

interface InboundEvent {
  text?: unknown;
  source?: { platform?: unknown; chat_id?: unknown };
}

function botMentioned(text: string): boolean {
  const name = (process.env.AMBIENT_BOT_NAME || 'hermes').toLowerCase();
  return text.toLowerCase().includes(`@${name}`);
}

export function register(ctx: PluginContext): void {
  const buffers = new Map<string, string[]>();
  ctx.register_hook('pre_gateway_dispatch', function bufferOrRewrite({ event }) {
    const inbound = (event ?? {}) as InboundEvent;
    const text = typeof inbound.text === 'string' ? inbound.text : '';
    const key = `${String(inbound.source?.platform)}:${String(inbound.source?.chat_id)}`;
    const buffer = buffers.get(key) ?? [];
    buffers.set(key, buffer);
    if (botMentioned(text)) {
      const combined = [...buffer, text].join('\n');
      buffer.length = 0;
      return { action: 'rewrite', text: combined };
    }
    buffer.push(text);
    return { action: 'skip', reason: 'ambient-buffered' };
  });
}

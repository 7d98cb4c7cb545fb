import { BUILTIN_COMMANDS } from '../commands/slash-command.ts';
import type { HookEngine } from '../../hooks/hook-engine.ts';

/**
 * Seconds Discord waits for an interaction's first answer. Past them it shows the interaction as
 * failed, and the interaction token the turn's reply would follow up on is never accepted.
 */
export const DISCORD_ANSWER_WINDOW_SECONDS = 3;

/**
 * The operator's warning, where a deployment with Discord on runs hooks before a Discord
 * interaction is answered, or undefined. The gateway answers only once the message is durable
 * (dedup, `pre_gateway_dispatch`, authorisation, a slash command's `command:<name>` hooks and a
 * plugin command's handler, then the enqueue: docs/gateway.md), so those hooks' time is inside
 * Discord's window; one that takes longer than it loses the interaction and its reply. A slow
 * hook is the operator's to fix (a timeout, or moving the work out of the decision), and the
 * gateway does not cut a hook short for one platform: a moderation hook cut short would let
 * its message through.
 *
 * @example
 * const warning = discordAnswerWindowWarning(engine, enabledPlatforms(config));
 * if (warning) logger.warn(warning);
 */
export function discordAnswerWindowWarning(
  engine: Pick<HookEngine, 'hasHook' | 'hasObservers' | 'pluginCommands'>,
  platforms: readonly string[],
): string | undefined {
  if (!platforms.includes('discord')) return undefined;
  const inline: string[] = [];
  if (engine.hasHook('pre_gateway_dispatch')) inline.push('pre_gateway_dispatch hooks');
  const plugin = engine.pluginCommands?.list().map((c) => c.name) ?? [];
  const commandHooks = [...Object.keys(BUILTIN_COMMANDS), ...plugin]
    .filter((name) => engine.hasObservers(`command:${name}`))
    .map((name) => `command:${name}`);
  if (commandHooks.length > 0) inline.push(`gateway hooks on ${commandHooks.join(', ')}`);
  if (plugin.length > 0) inline.push(`plugin commands ${plugin.map((name) => `/${name}`).join(', ')}`);
  if (inline.length === 0) return undefined;
  return (
    `discord: an interaction not answered within ${DISCORD_ANSWER_WINDOW_SECONDS} s fails, and the reply cannot follow it; ` +
    `these run before the answer: ${inline.join('; ')}. Keep each well inside it (docs/gateway.md#discords-3-second-window)`
  );
}

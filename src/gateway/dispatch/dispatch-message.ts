import { isAllowed } from '../../config/allowed-users.ts';
import { enabledPlatforms } from '../../config/deployment-config.ts';
import { runBuiltinCommand } from '../commands/builtin-commands.ts';
import { commandDecision } from '../../hooks/aggregate/command-decision.ts';
import { errorText } from '../../errors/error-text.ts';
import { runPluginCommand } from '../commands/plugin-command.ts';
import { resolveSlashCommand, type PluginSlashCommand, type SlashCommand } from '../commands/slash-command.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { sessionKeyOf, type MessageEvent } from '../../messaging/message-event.ts';
import type { Delivery } from '../../platforms/platform-adapter.ts';
import type { DispatchOutcome } from './dispatch-outcome.ts';
import { preGatewayDispatch } from './pre-gateway-dispatch.ts';
import { GatewayHandle, SessionStoreHandle } from './dispatch-hook-kwargs.ts';
import { DeliveryInProgressError } from '../../platforms/webhook-errors.ts';
import { messageTurn } from '../../pipeline/turn-message.ts';
import { SettledDeliveries } from './settled-deliveries.ts';

const DEFAULT_DEDUP_TTL_SECONDS = 2 * 86_400;

/**
 * A claim younger than this may still be in hand: its dispatch can wait on hooks (up to their
 * timeout) before it enqueues or fails and releases the claim. A platform's retry that finds one
 * is answered 503 (`DeliveryInProgressError`) to come back later (Slack's next retries come after
 * 1 and 5 minutes), unless this process settled it (`SettledDeliveries`); an older claim's retry
 * is a duplicate.
 */
export const CLAIM_IN_HAND_SECONDS = 55;

/**
 * The dispatch pipeline for one delivery (architecture §1): dedup claim →
 * `pre_gateway_dispatch` → authorisation → slash commands with `command:<name>` hooks →
 * enqueue the turn. It rejects only when the work could not be made durable (dedup store
 * or queue unreachable); the claim is then released so the platform's retry is taken, and
 * the caller answers 5xx.
 *
 * @example
 * const dispatch = createDispatcher(deps);
 * const outcome = await dispatch({ deliveryId: 'telegram:42', event });
 */
export function createDispatcher(deps: GatewayDeps): (delivery: Delivery) => Promise<DispatchOutcome> {
  const { config, engine, dedup, sessions, approvals, turnQueue, replier, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const ttl = deps.dedupTtlSeconds ?? DEFAULT_DEDUP_TTL_SECONDS;
  // Handed to pre_gateway_dispatch plugins (§1.12); shell hooks see their String() form.
  const gatewayHandle = new GatewayHandle(enabledPlatforms(config), (target, text) => replier.send(target, text));
  const sessionStoreHandle = new SessionStoreHandle((sessionKey) => sessions.current(sessionKey));
  const settled = new SettledDeliveries(CLAIM_IN_HAND_SECONDS * 1000);

  return async function dispatch(delivery: Delivery): Promise<DispatchOutcome> {
    const { deliveryId, event: inbound, retry } = delivery;
    const keys = { platform: inbound.source.platform, delivery_id: deliveryId, session_key: sessionKeyOf(inbound.source) };
    if (!(await dedup.claim(deliveryId, ttl, now()))) {
      const claimed = retry && !settled.has(deliveryId, now().getTime()) ? await dedup.claimedAt(deliveryId) : undefined;
      if (claimed && now().getTime() - claimed.getTime() < CLAIM_IN_HAND_SECONDS * 1000) {
        logger.info('retry of a delivery still in hand; 503 so the platform asks again later', keys);
        throw new DeliveryInProgressError(`delivery ${deliveryId} is still being handled; retry later`);
      }
      logger.info('duplicate delivery ignored', keys);
      return { kind: 'duplicate', deliveryId };
    }
    const outcome = await dispatchClaimed(delivery, keys);
    settled.add(deliveryId, now().getTime());
    return outcome;
  };

  /** Everything after a won claim; a failure releases the claim and rethrows (the caller answers 5xx). */
  async function dispatchClaimed(
    { deliveryId, event: inbound }: Delivery,
    keys: { platform: string; delivery_id: string; session_key: string },
  ): Promise<DispatchOutcome> {
    const sessionKey = keys.session_key;
    const warn = (message: string) => logger.warn(message, keys);
    try {
      const decision = await preGatewayDispatch(
        engine,
        inbound,
        { gateway: gatewayHandle, session_store: sessionStoreHandle },
        warn,
      );
      if (decision.action === 'skip') {
        logger.info(`pre_gateway_dispatch skipped the message: ${decision.reason}`, { ...keys, chat_id: inbound.source.chat_id });
        return { kind: 'skipped', deliveryId, reason: decision.reason };
      }
      const event: MessageEvent = decision.action === 'rewrite' ? { ...inbound, text: decision.text } : inbound;

      if (!isAllowed(config.allowedUsers, event.source.platform, event.source.user_id, config.runtime)) {
        logger.info('sender is not in HOOKGATE_ALLOWED_USERS', { ...keys, user_id: event.source.user_id });
        return config.unauthorisedReply === 'silent'
          ? { kind: 'refused', deliveryId }
          : {
              kind: 'refused',
              deliveryId,
              reply: `⛔ You are not allowed to use this bot (${event.source.platform}:${event.source.user_id ?? 'unknown'}).`,
            };
      }

      const received = now();
      const ctx = {
        engine,
        sessions,
        approvals,
        turnQueue,
        warn,
        event,
        sessionKey,
        deliveryId,
        now: received,
        ...(config.approvers ? { approvers: config.approvers } : {}),
        model: config.model,
      };
      const pluginCommands = engine.pluginCommands;
      let command = resolveSlashCommand(event.text, pluginCommands);
      let text = event.text;
      if (command) {
        const decided = commandDecision(await collectCommandHooks(command, event), command.rawCommand);
        if (decided.kind === 'deny') return { kind: 'command', deliveryId, command: command.command, reply: decided.reply };
        if (decided.kind === 'handled') {
          return { kind: 'command', deliveryId, command: command.command, ...(decided.reply ? { reply: decided.reply } : {}) };
        }
        if (decided.kind === 'rewrite') {
          // Re-resolved once; hooks and the access check are not repeated (§2.5 step 6).
          text = decided.text;
          command = resolveSlashCommand(text, pluginCommands);
        }
      }
      if (command && 'plugin' in command && pluginCommands) {
        const reply = await runPluginCommand(command, {
          commands: pluginCommands,
          sessions,
          traces: deps.traces,
          event,
          sessionKey,
          warn,
        });
        logger.info(`plugin command /${command.command} handled`, keys);
        return { kind: 'command', deliveryId, command: command.command, ...(reply ? { reply } : {}) };
      }
      if (command && !('plugin' in command)) {
        const reply = await runBuiltinCommand(command, { ...ctx, event: { ...event, text } });
        logger.info(`command /${command.command} handled`, keys);
        return { kind: 'command', deliveryId, command: command.command, ...(reply ? { reply } : {}) };
      }

      await turnQueue.send(messageTurn(deliveryId, text === event.text ? event : { ...event, text }, received));
      logger.info('turn enqueued', keys);
      return { kind: 'enqueued', deliveryId, sessionKey };
    } catch (error) {
      // Not durable: forget the claim so the platform's retry is processed, then 5xx.
      await dedup
        .release(deliveryId)
        .catch((releaseError: unknown) =>
          logger.error('could not release the dedup claim', { ...keys, error: errorText(releaseError) }),
        );
      throw error;
    }
  }

  async function collectCommandHooks(command: SlashCommand | PluginSlashCommand, event: MessageEvent): Promise<unknown[]> {
    try {
      return await engine.emitCollect(`command:${command.command}`, {
        platform: event.source.platform,
        user_id: event.source.user_id,
        command: command.command,
        raw_command: command.rawCommand,
        args: command.args,
        raw_args: command.args,
      });
    } catch (error) {
      logger.debug(`command:${command.command} hooks failed: ${errorText(error)}`);
      return [];
    }
  }
}

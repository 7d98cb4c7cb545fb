import { InteractionResponseFlags, InteractionResponseType, InteractionType, verifyKey } from 'discord-interactions';
import * as z from '../../validation/zod.ts';
import type { DiscordConfig } from './discord-config.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, validatePayload, type PlatformAdapter } from '../platform-adapter.ts';
import { splitText } from '../../messaging/split-text.ts';
import { InvalidSignatureError, MalformedPayloadError } from '../webhook-errors.ts';

interface CommandOption {
  name: string;
  /** Absent in older documentation examples; then the option counts as a value. */
  type?: number | undefined;
  value?: string | number | boolean | undefined;
  options?: CommandOption[] | undefined;
}
const CommandOptionSchema: z.ZodMiniType<CommandOption> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.optional(z.int()),
    value: z.optional(z.union([z.string(), z.number(), z.boolean()])),
    options: z.optional(z.array(CommandOptionSchema)),
  }),
);
/** https://discord.com/developers/docs/resources/message#attachment-object */
const DiscordAttachment = z.looseObject({
  id: z.string(),
  filename: z.string(),
  content_type: z.optional(z.string()),
  size: z.optional(z.int().check(z.nonnegative())),
  url: z.string(),
  proxy_url: z.optional(z.string()),
});
const DiscordUser = z.looseObject({ id: z.string(), username: z.optional(z.string()), global_name: z.nullish(z.string()) });

/** What every interaction carries, PING included: read first, so that a PING is answered whatever else it has. */
const InteractionEnvelope = z.looseObject({
  /** Discord sends it; its docs' examples and its interactions library's tests do not. */
  application_id: z.optional(z.string()),
  type: z.int(),
});

const Interaction = z.looseObject({
  id: z.string(),
  /** Discord sends it; its docs' examples and its interactions library's tests do not. */
  application_id: z.optional(z.string()),
  type: z.int(),
  /** What the reply follows up on (`/webhooks/<app>/<token>`): one without it could never be answered. */
  token: z.string().check(z.minLength(1)),
  guild_id: z.optional(z.string()),
  channel_id: z.optional(z.string()),
  channel: z.optional(z.looseObject({ id: z.string() })),
  member: z.optional(z.looseObject({ user: DiscordUser })),
  user: z.optional(DiscordUser),
  data: z.optional(
    z.looseObject({
      // Optional here: a component or modal interaction's data has none, and is refused by type below.
      name: z.optional(z.string()),
      options: z.optional(z.array(CommandOptionSchema)),
      /** The ATTACHMENT options' files (option type 11, its value is the attachment id). */
      resolved: z.optional(z.looseObject({ attachments: z.optional(z.record(z.string(), DiscordAttachment)) })),
    }),
  ),
});

/** Option types that are sub-commands (1) or groups (2): their name is a word of the text. */
const SUB_COMMAND_TYPES = new Set([1, 2]);

/** `/<name>` then each option's value (sub-command names included), separated by spaces. */
export function discordCommandText(name: string, options: readonly CommandOption[] = []): string {
  const words = [`/${name}`];
  const walk = (list: readonly CommandOption[]) => {
    for (const option of list) {
      if (option.type !== undefined && SUB_COMMAND_TYPES.has(option.type)) words.push(option.name);
      else if (option.value !== undefined) words.push(String(option.value));
      if (option.options) walk(option.options);
    }
  };
  walk(options);
  return words.join(' ');
}

const MAX_INLINE_CHARS = 2000;

/** How far X-Signature-Timestamp may be from now, as Slack's request timestamp (seconds). */
export const DISCORD_MAX_AGE_SECONDS = 300;

/**
 * Discord interactions: Ed25519 over timestamp + raw body (`verifyKey`; 401 on failure,
 * which Discord's endpoint probes check) and a timestamp within 5 minutes of now, PING → PONG, an application command → its text
 * is dispatched and answered with a deferred response (type 5) that the turn completes by
 * follow-up through the interaction token. A gateway-made reply (a command's answer, a
 * refusal) goes straight into the interaction response (type 4) instead.
 *
 * @example
 * const adapter = discordAdapter({ publicKey, applicationId, apiBaseUrl });
 */
export function discordAdapter(config: DiscordConfig, now: () => number = Date.now): PlatformAdapter {
  return {
    platform: 'discord',
    repliesInline: true,
    async handle(request) {
      const signature = request.headers.get('x-signature-ed25519') ?? '';
      const timestamp = request.headers.get('x-signature-timestamp') ?? '';
      let valid = false;
      try {
        valid = signature !== '' && timestamp !== '' && (await verifyKey(request.body, signature, timestamp, config.publicKey));
      } catch {
        valid = false;
      }
      if (!valid) throw new InvalidSignatureError('discord: invalid request signature');
      // The timestamp is signed so that a captured request cannot be sent again later: past the
      // dedup window it would start the turn again as its user. Discord needs the answer within
      // 3 seconds, so a request older than Slack's 5-minute window is never a real one.
      if (!/^\d+$/.test(timestamp))
        throw new InvalidSignatureError('discord: X-Signature-Timestamp is not a Unix time in seconds');
      if (Math.abs(now() / 1000 - Number(timestamp)) > DISCORD_MAX_AGE_SECONDS)
        throw new InvalidSignatureError('discord: request timestamp is more than 5 minutes away');
      const envelope = parsePayload(request.body, InteractionEnvelope, 'discord interaction');
      // A body without application_id is taken as ours (it verified with our key); one that
      // names another application was meant for someone else.
      const applicationId = envelope.application_id ?? config.applicationId;
      if (applicationId !== config.applicationId) {
        throw new MalformedPayloadError(
          `discord interaction: application_id ${JSON.stringify(applicationId)} is not this application (DISCORD_APPLICATION_ID)`,
        );
      }
      // A PING needs nothing but its type: Discord's own carry id and token, a minimal one ({"type":1}) is answered too.
      if (envelope.type === InteractionType.PING) {
        return { kind: 'respond', response: jsonResponse({ type: InteractionResponseType.PONG }) };
      }
      const interaction = validatePayload(envelope, Interaction, 'discord interaction');
      if (interaction.type !== InteractionType.APPLICATION_COMMAND || !interaction.data) {
        throw new MalformedPayloadError(
          `discord: interaction type ${interaction.type} is not supported (slash commands, type 2, are; components and modals are not)`,
        );
      }
      const commandName = interaction.data.name;
      if (commandName === undefined) throw new MalformedPayloadError('discord interaction: a command without data.name');
      const user = interaction.member?.user ?? interaction.user;
      // Every real command names its channel; without one (the interactions library's test
      // body) the conversation is the user's, or this interaction alone. The reply goes
      // through the interaction token either way.
      const chatId =
        interaction.channel_id ?? interaction.channel?.id ?? (user ? `user:${user.id}` : `interaction:${interaction.id}`);
      const source = {
        platform: 'discord',
        chat_id: chatId,
        user_id: user?.id ?? null,
        user_name: user?.global_name ?? user?.username ?? '',
        chat_type: interaction.guild_id ? 'group' : 'dm',
        thread_id: '',
      };
      const attachments = Object.values(interaction.data.resolved?.attachments ?? {}).map((file): Attachment => {
        const mime = file.content_type ?? 'application/octet-stream';
        return {
          kind: kindOfMime(mime),
          mime_type: mime,
          size: file.size ?? null,
          name: file.filename,
          source: { platform: 'discord', url: file.url },
        };
      });
      const event: MessageEvent = {
        text: discordCommandText(commandName, interaction.data.options),
        message_id: interaction.id,
        internal: false,
        source,
        reply: {
          platform: 'discord',
          chat_id: chatId,
          thread_id: '',
          extra: { interaction_token: interaction.token, application_id: applicationId },
        },
        ...(attachments.length > 0 ? { attachments } : {}),
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId: `discord:${interaction.id}`, event }],
        acknowledge: (outcomes) => {
          const reply = outcomes.map((o) => o.reply).find((r) => r !== undefined && r !== '');
          if (reply !== undefined) {
            return jsonResponse({
              type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
              data: { content: splitText(reply, MAX_INLINE_CHARS)[0] },
            });
          }
          if (outcomes.some((o) => o.kind === 'enqueued')) {
            return jsonResponse({ type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE });
          }
          // Nothing will follow (skipped, silent refusal): an ephemeral deferral others never see.
          return jsonResponse({
            type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            data: { flags: InteractionResponseFlags.EPHEMERAL },
          });
        },
      };
    },
  };
}

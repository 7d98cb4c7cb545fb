import * as z from '../../validation/zod.ts';
import { httpUrl, token } from '../env-formats.ts';
import { readGroup } from '../env-group.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';
import type { DiscordReplyOptions } from './discord-reply.ts';

/** What the gateway needs for Discord: the interactions' public key, the application, the API. */
export interface DiscordConfig {
  publicKey: string;
  applicationId: string;
  /** Not needed for interaction follow-ups (the interaction token authorises them). */
  botToken?: string;
  apiBaseUrl: string;
}

export const DISCORD_DEFAULT_API_BASE_URL = 'https://discord.com/api/v10';

/** Discord's variables and their formats. */
export const DISCORD_ENV = {
  DISCORD_PUBLIC_KEY: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex digits (an Ed25519 public key)' })),
  DISCORD_APPLICATION_ID: z.string().check(z.regex(/^\d+$/, { error: 'must be a numeric snowflake id' })),
  DISCORD_BOT_TOKEN: token,
  DISCORD_API_BASE_URL: httpUrl,
};

export const DISCORD_SECRET_KEYS: PlatformSecretKeys = {
  gateway: ['DISCORD_PUBLIC_KEY'],
  reply: ['DISCORD_APPLICATION_ID', 'DISCORD_BOT_TOKEN'],
};

export function loadDiscordInbound(read: EnvReader): InboundSettings<DiscordConfig> {
  const group = readGroup(read, ['DISCORD_PUBLIC_KEY', 'DISCORD_APPLICATION_ID'], ['DISCORD_BOT_TOKEN', 'DISCORD_API_BASE_URL']);
  if (!('config' in group)) return group;
  const botToken = read('DISCORD_BOT_TOKEN');
  return {
    config: {
      publicKey: group.config.DISCORD_PUBLIC_KEY.toLowerCase(),
      applicationId: group.config.DISCORD_APPLICATION_ID,
      ...(botToken ? { botToken } : {}),
      apiBaseUrl: read('DISCORD_API_BASE_URL') ?? DISCORD_DEFAULT_API_BASE_URL,
    },
  };
}

export function loadDiscordReply(read: EnvReader): DiscordReplyOptions | undefined {
  const applicationId = read('DISCORD_APPLICATION_ID');
  return applicationId === undefined
    ? undefined
    : { applicationId, apiBaseUrl: read('DISCORD_API_BASE_URL') ?? DISCORD_DEFAULT_API_BASE_URL };
}

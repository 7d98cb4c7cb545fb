import * as z from '../../validation/zod.ts';
import { httpUrl } from '../env-formats.ts';
import { readGroup } from '../env-group.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';
import type { TelegramReplyOptions } from './telegram-reply.ts';

/** What the gateway needs for Telegram: the bot token, the webhook's secret token, the API. */
export interface TelegramConfig {
  botToken: string;
  secretToken: string;
  apiBaseUrl: string;
}

export const TELEGRAM_DEFAULT_API_BASE_URL = 'https://api.telegram.org';

/** Telegram's variables and their formats. */
export const TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: z.string().check(z.regex(/^\d+:[A-Za-z0-9_-]+$/, { error: 'must look like <bot id>:<secret>' })),
  // Telegram allows 1-256 of A-Z a-z 0-9 _ - in setWebhook's secret_token.
  TELEGRAM_SECRET_TOKEN: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,256}$/, { error: 'must be 1-256 of A-Z a-z 0-9 _ -' })),
  TELEGRAM_API_BASE_URL: httpUrl,
};

export const TELEGRAM_SECRET_KEYS: PlatformSecretKeys = { gateway: ['TELEGRAM_SECRET_TOKEN'], reply: ['TELEGRAM_BOT_TOKEN'] };

export function loadTelegramInbound(read: EnvReader): InboundSettings<TelegramConfig> {
  const group = readGroup(read, ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_SECRET_TOKEN'], ['TELEGRAM_API_BASE_URL']);
  if (!('config' in group)) return group;
  const { TELEGRAM_BOT_TOKEN: botToken, TELEGRAM_SECRET_TOKEN: secretToken } = group.config;
  return { config: { botToken, secretToken, apiBaseUrl: read('TELEGRAM_API_BASE_URL') ?? TELEGRAM_DEFAULT_API_BASE_URL } };
}

export function loadTelegramReply(read: EnvReader): TelegramReplyOptions | undefined {
  const botToken = read('TELEGRAM_BOT_TOKEN');
  return botToken === undefined
    ? undefined
    : { botToken, apiBaseUrl: read('TELEGRAM_API_BASE_URL') ?? TELEGRAM_DEFAULT_API_BASE_URL };
}

import * as z from '../../validation/zod.ts';
import { httpUrl, token } from '../env-formats.ts';
import { readGroup } from '../env-group.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';
import type { WhatsAppReplyOptions } from './whatsapp-reply.ts';

/** What the gateway needs for WhatsApp Cloud API: the app secret, the verify token, the sender and the API. */
export interface WhatsAppConfig {
  appSecret: string;
  verifyToken: string;
  accessToken: string;
  phoneNumberId: string;
  apiBaseUrl: string;
}

export const WHATSAPP_DEFAULT_API_BASE_URL = 'https://graph.facebook.com/v21.0';

/** WhatsApp's variables and their formats. */
export const WHATSAPP_ENV = {
  WHATSAPP_APP_SECRET: token,
  WHATSAPP_VERIFY_TOKEN: token,
  WHATSAPP_ACCESS_TOKEN: token,
  WHATSAPP_PHONE_NUMBER_ID: z.string().check(z.regex(/^\d+$/, { error: 'must be numeric' })),
  WHATSAPP_API_BASE_URL: httpUrl,
};

export const WHATSAPP_SECRET_KEYS: PlatformSecretKeys = {
  gateway: ['WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'],
  reply: ['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'],
};

export function loadWhatsAppInbound(read: EnvReader): InboundSettings<WhatsAppConfig> {
  const group = readGroup(
    read,
    ['WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'],
    ['WHATSAPP_API_BASE_URL'],
  );
  if (!('config' in group)) return group;
  const values = group.config;
  return {
    config: {
      appSecret: values.WHATSAPP_APP_SECRET,
      verifyToken: values.WHATSAPP_VERIFY_TOKEN,
      accessToken: values.WHATSAPP_ACCESS_TOKEN,
      phoneNumberId: values.WHATSAPP_PHONE_NUMBER_ID,
      apiBaseUrl: read('WHATSAPP_API_BASE_URL') ?? WHATSAPP_DEFAULT_API_BASE_URL,
    },
  };
}

export function loadWhatsAppReply(read: EnvReader): WhatsAppReplyOptions | undefined {
  const accessToken = read('WHATSAPP_ACCESS_TOKEN');
  const phoneNumberId = read('WHATSAPP_PHONE_NUMBER_ID');
  if (accessToken === undefined || phoneNumberId === undefined) return undefined;
  return { accessToken, phoneNumberId, apiBaseUrl: read('WHATSAPP_API_BASE_URL') ?? WHATSAPP_DEFAULT_API_BASE_URL };
}

import type { Platform } from '../platform.ts';
import { whatsAppDownload } from './whatsapp-download.ts';
import {
  loadWhatsAppInbound,
  loadWhatsAppReply,
  WHATSAPP_ENV,
  WHATSAPP_SECRET_KEYS,
  type WhatsAppConfig,
} from './whatsapp-config.ts';
import { sendWhatsAppReply, type WhatsAppReplyOptions } from './whatsapp-reply.ts';

/** WhatsApp Cloud API: signed webhooks (verify-token handshake), replies through the messages endpoint. */
export const whatsAppPlatform: Platform<'whatsapp', WhatsAppConfig, WhatsAppReplyOptions> = {
  name: 'whatsapp',
  env: WHATSAPP_ENV,
  secretKeys: WHATSAPP_SECRET_KEYS,
  loadInbound: loadWhatsAppInbound,
  loadReply: loadWhatsAppReply,
  createReplySender:
    (config, { retry }) =>
    (target, text) =>
      sendWhatsAppReply(config, target, text, retry),
  createDownloader: whatsAppDownload,
};

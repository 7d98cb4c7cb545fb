import type { Platform } from '../platform.ts';
import { telegramDownload } from './telegram-download.ts';
import {
  loadTelegramInbound,
  loadTelegramReply,
  TELEGRAM_ENV,
  TELEGRAM_SECRET_KEYS,
  type TelegramConfig,
} from './telegram-config.ts';
import { sendTelegramReply, type TelegramReplyOptions } from './telegram-reply.ts';

/** Telegram: Bot API webhooks (secret-token header), replies through `sendMessage`. */
export const telegramPlatform: Platform<'telegram', TelegramConfig, TelegramReplyOptions> = {
  name: 'telegram',
  env: TELEGRAM_ENV,
  secretKeys: TELEGRAM_SECRET_KEYS,
  loadInbound: loadTelegramInbound,
  loadReply: loadTelegramReply,
  createReplySender:
    (config, { retry }) =>
    (target, text) =>
      sendTelegramReply(config, target, text, retry),
  createDownloader: telegramDownload,
};

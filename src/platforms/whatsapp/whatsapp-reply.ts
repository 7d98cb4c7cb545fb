import type { ReplyTarget } from '../../messaging/message-event.ts';
import { postJson } from '../../messaging/platform-http.ts';
import type { RetryingSend } from '../../messaging/reply-retry.ts';
import { splitText } from '../../messaging/split-text.ts';

/** What a WhatsApp reply needs (the gateway's `WhatsAppConfig` has it). */
export interface WhatsAppReplyOptions {
  accessToken: string;
  /** `WHATSAPP_PHONE_NUMBER_ID`: the number every reply is sent from (architecture: `{base}/{phone_number_id}/messages`). */
  phoneNumberId: string;
  apiBaseUrl: string;
}

const MAX_CHARS = 4096;

/** A text message through the Cloud API's messages endpoint of the configured number. */
export async function sendWhatsAppReply(
  config: WhatsAppReplyOptions,
  target: ReplyTarget,
  text: string,
  retry: RetryingSend,
): Promise<void> {
  for (const piece of splitText(text, MAX_CHARS)) {
    await retry.run(() =>
      postJson(
        'whatsapp',
        `${config.apiBaseUrl}/${encodeURIComponent(config.phoneNumberId)}/messages`,
        { messaging_product: 'whatsapp', recipient_type: 'individual', to: target.chat_id, type: 'text', text: { body: piece } },
        { authorization: `Bearer ${config.accessToken}` },
      ),
    );
  }
}

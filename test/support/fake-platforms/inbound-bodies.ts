/**
 * One person's text message as each platform's webhook delivers it (the fields the gateway's
 * adapters read, in the platforms' documented shapes), as the JSON body to post. Signing is
 * signed-requests.ts's.
 */

/**
 * A Telegram update with a private chat's text message, from user 42.
 *
 * @example
 * const body = telegramTextUpdate({ updateId: 7, chatId: 1_000_007, text: 'hi' });
 */
export function telegramTextUpdate(m: { updateId: number; chatId: number; text: string }): string {
  return JSON.stringify({
    update_id: m.updateId,
    message: {
      message_id: m.updateId,
      from: { id: 42, is_bot: false, first_name: 'Ann' },
      chat: { id: m.chatId, type: 'private' },
      text: m.text,
    },
  });
}

/**
 * A Slack Events API callback with a direct message from U1.
 *
 * @example
 * const body = slackMessageEvent({ eventId: 'Ev7', channel: 'D1', ts: '7.000100', text: 'hi' });
 */
export function slackMessageEvent(m: { eventId: string; channel: string; ts: string; text: string }): string {
  return JSON.stringify({
    type: 'event_callback',
    event_id: m.eventId,
    event: { type: 'message', channel: m.channel, channel_type: 'im', user: 'U1', ts: m.ts, text: m.text },
  });
}

/**
 * A Discord application command interaction (`/say text:<text>`) from U7, for application 999.
 *
 * @example
 * const body = discordSayInteraction({ id: 'I7', token: 'tok-7', channelId: 'CH7', text: 'hi' });
 */
export function discordSayInteraction(m: { id: string; token: string; channelId: string; text: string }): string {
  return JSON.stringify({
    id: m.id,
    application_id: '999',
    type: 2,
    token: m.token,
    channel_id: m.channelId,
    user: { id: 'U7', username: 'ann' },
    data: { name: 'say', options: [{ name: 'text', type: 3, value: m.text }] },
  });
}

/**
 * A WhatsApp Cloud API notification with one text message, to phone number id 555.
 *
 * @example
 * const body = whatsAppTextMessage({ from: '491', id: 'wamid.7', text: 'hi' });
 */
export function whatsAppTextMessage(m: { from: string; id: string; text: string }): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'E',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { phone_number_id: '555' },
              messages: [{ from: m.from, id: m.id, type: 'text', text: { body: m.text } }],
            },
          },
        ],
      },
    ],
  });
}

/**
 * A Bot Framework message activity in a personal Teams conversation, from 29:user.
 *
 * @example
 * const body = teamsMessageActivity({ id: 'A7', serviceUrl, conversation: 'a:conv-1', text: 'hi' });
 */
export function teamsMessageActivity(m: { id: string; serviceUrl: string; conversation: string; text: string }): string {
  return JSON.stringify({
    type: 'message',
    id: m.id,
    serviceUrl: m.serviceUrl,
    channelId: 'msteams',
    from: { id: '29:user', name: 'Cy' },
    conversation: { id: m.conversation, conversationType: 'personal' },
    recipient: { id: '28:bot' },
    text: m.text,
  });
}

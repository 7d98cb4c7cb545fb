import type { ReplyTarget } from './message-event.ts';

/** Sends the bot's messages back through the platform's API (one implementation per platform). */
export interface Replier {
  send(target: ReplyTarget, text: string): Promise<void>;
}

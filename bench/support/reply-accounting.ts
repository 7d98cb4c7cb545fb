/** One chat message the load test posted, and when (`performance.now()` of the load test's process). */
export interface PostedMessage {
  /** The platform's chat id, as the reply names it. */
  chatId: string;
  /** 1-based position in its chat. */
  index: number;
  /** The message text: unique across the run, so that its reply can be told from every other. */
  text: string;
  postedAt: number;
  /** When the webhook answered 2xx. */
  ackedAt: number;
}

/** One reply the fake platform API received. */
export interface ReceivedReply {
  chatId: string;
  text: string;
  /** When the whole request had arrived (the same clock as `PostedMessage.postedAt`). */
  at: number;
}

export interface ReplyAccount {
  /** Acked messages that got no reply. */
  lost: PostedMessage[];
  /** Acked messages that got more than one reply, with how many. */
  duplicated: { message: PostedMessage; replies: number }[];
  /** Replies that answer no acked message of their chat. */
  unexpected: ReceivedReply[];
  /** Chats whose first replies arrived in another order than their messages were posted. */
  outOfOrderChats: string[];
  /** Per acked message: post → 2xx, ms. */
  ackMs: number[];
  /** Per answered message: post → its (first) reply at the platform API, ms. */
  replyMs: number[];
}

/**
 * The reply the load test's echo model gives to `text`: the accounting recognises a message's
 * reply by it.
 *
 * @example
 * echoOf('load c3 m7 r1a2'); // 'echo: load c3 m7 r1a2'
 */
export function echoOf(text: string): string {
  return `echo: ${text}`;
}

/**
 * Matches replies to the messages they answer (same chat, text `echoOf(message.text)`) and
 * says what went wrong: a message with no reply is lost, one with two or more is duplicated,
 * a reply to nothing is unexpected, and a chat whose replies came in another order than its
 * messages is out of order. Latencies are measured from the post, to the ack and to the
 * first reply.
 *
 * @example
 * const account = accountReplies(posted, fake.received('/telegram').map(asReply));
 * if (account.lost.length + account.duplicated.length > 0) process.exitCode = 1;
 */
export function accountReplies(posted: readonly PostedMessage[], replies: readonly ReceivedReply[]): ReplyAccount {
  const byKey = new Map<string, { message: PostedMessage; replies: ReceivedReply[] }>();
  const keyOf = (chatId: string, replyText: string) => `${chatId}\n${replyText}`;
  for (const message of posted) byKey.set(keyOf(message.chatId, echoOf(message.text)), { message, replies: [] });
  const unexpected: ReceivedReply[] = [];
  // Message indexes in the order their replies arrived, per chat.
  const arrivals = new Map<string, number[]>();
  for (const reply of [...replies].sort((a, b) => a.at - b.at)) {
    const entry = byKey.get(keyOf(reply.chatId, reply.text));
    if (!entry) {
      unexpected.push(reply);
      continue;
    }
    entry.replies.push(reply);
    if (entry.replies.length > 1) continue; // a duplicate: counted above, not an order of its own
    const order = arrivals.get(reply.chatId) ?? [];
    arrivals.set(reply.chatId, order);
    order.push(entry.message.index);
  }
  const entries = [...byKey.values()];
  return {
    lost: entries.filter((e) => e.replies.length === 0).map((e) => e.message),
    duplicated: entries.filter((e) => e.replies.length > 1).map((e) => ({ message: e.message, replies: e.replies.length })),
    unexpected,
    outOfOrderChats: [...arrivals.entries()]
      .filter(([, order]) => order.some((index, i) => i > 0 && index <= order[i - 1]!))
      .map(([chat]) => chat),
    ackMs: posted.map((m) => m.ackedAt - m.postedAt),
    replyMs: entries.flatMap((e) => (e.replies[0] ? [e.replies[0].at - e.message.postedAt] : [])),
  };
}

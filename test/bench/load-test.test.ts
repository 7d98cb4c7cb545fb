import { describe, expect, it } from 'vitest';
import { runChatLoad } from '../../bench/support/chat-load.ts';
import { accountReplies, echoOf, type PostedMessage, type ReceivedReply } from '../../bench/support/reply-accounting.ts';

/** Two chats, two messages each, posted at 0/10/20/30 ms and acked 5 ms later. */
const POSTED: PostedMessage[] = [
  { chatId: '1', index: 1, text: 'load c1 m1', postedAt: 0, ackedAt: 5 },
  { chatId: '1', index: 2, text: 'load c1 m2', postedAt: 10, ackedAt: 15 },
  { chatId: '2', index: 1, text: 'load c2 m1', postedAt: 20, ackedAt: 25 },
  { chatId: '2', index: 2, text: 'load c2 m2', postedAt: 30, ackedAt: 35 },
];
const replyTo = (m: PostedMessage, at: number, chatId = m.chatId): ReceivedReply => ({ chatId, text: echoOf(m.text), at });
const [c1m1, c1m2, c2m1, c2m2] = POSTED as [PostedMessage, PostedMessage, PostedMessage, PostedMessage];
const ALL_REPLIES = [replyTo(c1m1, 100), replyTo(c1m2, 110), replyTo(c2m1, 120), replyTo(c2m2, 130)];

describe("accountReplies (the load test's accounting)", () => {
  it('finds nothing wrong when every message got one reply, in order', () => {
    const account = accountReplies(POSTED, ALL_REPLIES);
    expect(account).toMatchObject({ lost: [], duplicated: [], unexpected: [], outOfOrderChats: [] });
    expect(account.ackMs).toEqual([5, 5, 5, 5]);
    expect(account.replyMs).toEqual([100, 100, 100, 100]);
  });

  it('counts a dropped reply as lost', () => {
    const account = accountReplies(POSTED, ALL_REPLIES.slice(0, 3));
    expect(account.lost).toEqual([c2m2]);
    expect(account.replyMs).toHaveLength(3);
  });

  it('counts a second reply to one message as duplicated, and times the first', () => {
    const account = accountReplies(POSTED, [...ALL_REPLIES, replyTo(c1m2, 300)]);
    expect(account.duplicated).toEqual([{ message: c1m2, replies: 2 }]);
    expect(account.lost).toEqual([]);
    expect(account.outOfOrderChats).toEqual([]);
    expect(account.replyMs).toEqual([100, 100, 100, 100]);
  });

  it('counts a reply in the wrong chat as unexpected, and its message as lost', () => {
    const wrong = replyTo(c2m2, 130, '1');
    const account = accountReplies(POSTED, [...ALL_REPLIES.slice(0, 3), wrong]);
    expect(account.unexpected).toEqual([wrong]);
    expect(account.lost).toEqual([c2m2]);
  });

  it('names a chat whose replies came in another order than its messages', () => {
    const account = accountReplies(POSTED, [replyTo(c1m2, 100), replyTo(c1m1, 110), replyTo(c2m1, 120), replyTo(c2m2, 130)]);
    expect(account.outOfOrderChats).toEqual(['1']);
    expect(account.lost).toEqual([]);
  });
});

describe('runChatLoad (the load test, small)', () => {
  it('5 chats × 3 messages through hookgate dev: every message acked and answered once, in order', {
    timeout: 60_000,
  }, async () => {
    const report = await runChatLoad({ chats: 5, messages: 3, concurrency: 5, state: 'disk', quietMs: 15_000 });
    expect(report).toMatchObject({
      posted: 15,
      acked: 15,
      failedPosts: [],
      replies: 15,
      lost: 0,
      duplicated: 0,
      unexpected: 0,
      outOfOrderChats: 0,
    });
    for (const samples of [report.ackMs, report.replyMs]) {
      expect(samples.n).toBe(15);
      for (const p of [samples.p50, samples.p95, samples.p99]) expect(Number.isFinite(p)).toBe(true);
    }
    expect(report.perPosition.map((line) => [line.label, line.turns, line.modelCalls])).toEqual([
      ['m1', 5, 1],
      ['m2', 5, 1],
      ['m3', 5, 1],
    ]);
    expect(report.firstFifth.label).toBe('m1');
    expect(report.lastFifth.label).toBe('m3');
    // Each turn reads and writes the table; the gateway's enqueue is counted outside the turns.
    for (const line of report.perPosition) {
      expect(line.readUnits).toBeGreaterThan(0);
      expect(line.writeUnits).toBeGreaterThan(0);
    }
    expect(report.outsideTurns.operations['sqs SendMessage']?.requests).toBe(1);
    expect(report.machine.loadBefore).toHaveLength(3);
    const { started, peak, end } = report.rssMb;
    expect(started).toBeGreaterThan(0);
    expect(peak).toBeGreaterThanOrEqual(Math.max(started, end));
  });

  it('paced by the replies: each chat posts its next message once the last one was answered', { timeout: 60_000 }, async () => {
    const report = await runChatLoad({ chats: 3, messages: 3, concurrency: 3, state: 'memory', pace: 'reply', quietMs: 15_000 });
    expect(report).toMatchObject({
      options: { pace: 'reply' },
      acked: 9,
      replies: 9,
      lost: 0,
      duplicated: 0,
      unexpected: 0,
      outOfOrderChats: 0,
    });
  });
});

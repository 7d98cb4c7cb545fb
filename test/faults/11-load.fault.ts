import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsRequestCounter } from '../../bench/support/aws-request-counter.ts';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { ACK, chatMessage, post, startFaultDev, type ChatMessage, type FaultDev, type Platform } from './support/fault-dev.ts';

/**
 * Case 11, load: CHATS chats spread over the five platforms, each sending MESSAGES messages
 * in rounds (every chat sends its next message at once, then the round's replies are awaited),
 * through `hookgate dev` and the fake platform APIs. Reports the acknowledgement and reply
 * latency (p50/p95/p99), lost and twice-answered messages, and the DynamoDB requests and
 * capacity per turn in the first and the last round — which must stay flat as every session
 * grows (docs/turn-runtime.md, "Long sessions").
 */
const CHATS = size(200, 20);
const MESSAGES = size(20, 4);
const PLATFORMS: readonly Platform[] = ['telegram', 'slack', 'discord', 'whatsapp', 'teams'];
let fd: FaultDev;
const counter = new AwsRequestCounter();

beforeAll(async () => {
  fd = await startFaultDev({
    files: { 'config.yaml': '{}\n' },
    onPlane: (plane) => counter.attach(plane.clients.dynamodb, 'dynamodb'),
  });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (values: number[]) =>
  `p50 ${percentile(values, 0.5).toFixed(0)} / p95 ${percentile(values, 0.95).toFixed(0)} / p99 ${percentile(values, 0.99).toFixed(0)} ms`;

describe('fault 11: load', () => {
  it(`${CHATS} chats x ${MESSAGES} messages: all answered once, cost per turn flat`, async (ctx) => {
    const chats = Array.from({ length: CHATS }, (_, i) => ({
      platform: PLATFORMS[i % PLATFORMS.length]!,
      chat: `9${String(i).padStart(4, '0')}`,
    }));
    const acks: number[] = [];
    const replyLatency: number[] = [];
    const statuses: boolean[] = [];
    const perRound: { requests: number; readUnits: number; writeUnits: number }[] = [];
    let n = 500_000;
    const firstOf = new Map<string, ChatMessage>();
    const expectedOf = new Map<string, string[]>();
    for (let round = 1; round <= MESSAGES; round++) {
      counter.reset();
      const sent = await Promise.all(
        chats.map(async ({ platform, chat }) => {
          const text = `load ${chat} message ${round}`;
          const message = chatMessage(fd, platform, chat, ++n, text);
          if (!firstOf.has(chat)) firstOf.set(chat, message);
          const expected = platform === 'discord' ? `You said: /say ${text}` : `You said: ${text}`;
          expectedOf.set(chat, [...(expectedOf.get(chat) ?? []), expected]);
          const started = performance.now();
          const status = await post(fd, message);
          acks.push(performance.now() - started);
          statuses.push(status === ACK[platform]);
          return { chat, expected, started };
        }),
      );
      // The round ends when every chat has its reply; the fake API's arrival time dates each.
      await until(
        async () =>
          (await Promise.all(chats.map(async ({ chat }) => (await firstOf.get(chat)!.replies()).length))).every(
            (count) => count >= round,
          ),
        (done) => done,
      );
      const arrivals = fd.fake.requests.filter((r) => typeof r.status === 'number' && r.status < 300);
      for (const { expected, started } of sent) {
        const reply = arrivals.find((r) => JSON.stringify(r.json ?? '').includes(JSON.stringify(expected).slice(1, -1)));
        if (reply) replyLatency.push(reply.at - started);
      }
      const rows = Object.values(counter.snapshot());
      const sum = (k: 'requests' | 'readUnits' | 'writeUnits') => rows.reduce((s, r) => s + r[k], 0) / CHATS;
      perRound.push({ requests: sum('requests'), readUnits: sum('readUnits'), writeUnits: sum('writeUnits') });
    }
    await settle(1_500); // late duplicates would show now
    let lost = 0;
    let twice = 0;
    for (const { chat } of chats) {
      const replies = await firstOf.get(chat)!.replies();
      const expected = expectedOf.get(chat)!;
      lost += expected.filter((e) => !replies.includes(e)).length;
      twice += replies.length - new Set(replies).size;
    }
    const first = perRound[0]!;
    const last = perRound.at(-1)!;
    const round = (r: typeof first) =>
      `${r.requests.toFixed(1)} requests, ${r.readUnits.toFixed(1)} RRU, ${r.writeUnits.toFixed(1)} WRU`;
    faultLine(
      ctx,
      `fault 11 load: ${CHATS} chats x ${MESSAGES} messages = ${CHATS * MESSAGES}, ${statuses.filter(Boolean).length} acknowledged (${ms(acks)}), ` +
        `${replyLatency.length} replies timed (${ms(replyLatency)}), ${lost} lost, ${twice} twice; DynamoDB per turn: round 1 ${round(first)}, round ${MESSAGES} ${round(last)}`,
    );
    expect(statuses.every(Boolean)).toBe(true);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    // Flat: the last round's reads per turn stay within the first round's plus the window's growth
    // bound — a session of MESSAGES turns is far below the history window, so reads grow only by
    // the transcript the turn reads (a few units), never with the number of chats.
    expect(last.requests).toBeLessThanOrEqual(first.requests + 2);
  });
});

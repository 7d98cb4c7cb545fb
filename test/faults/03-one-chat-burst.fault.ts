import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { ACK, chatMessage, PLATFORMS, post, startFaultDev, type FaultDev, type Platform } from './support/fault-dev.ts';

/**
 * Fault 3: 50 messages to one chat on every platform at once (all six platforms in parallel).
 * First each platform's 50 go one after another without waiting for any reply (each
 * acknowledged before the next is sent, so their order is defined): 50 replies, in that order.
 * Then 50 more per platform all at the same moment (no order between them is defined): 50
 * replies, none lost, none twice.
 */
const COUNT = size(50, 8);
let fd: FaultDev;

beforeAll(async () => {
  fd = await startFaultDev({ files: { 'config.yaml': '{}\n' } });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

const healthy = () =>
  until(
    async () => (await fetch(`${fd.dev.url}/healthz`)).status,
    (s) => s === 200,
  );

describe('fault 3: many messages to one chat', () => {
  it(`${COUNT} messages per chat on every platform: all answered, in order, none lost, none twice`, async (ctx) => {
    const outcome: Record<string, { acked: number; replies: number; inOrder: boolean; lost: number; twice: number }> = {};
    const checks: (() => Promise<void>)[] = [];
    let n = 10_000;
    for (const mode of ['ordered', 'burst'] as const) {
      await Promise.all(
        PLATFORMS.map(async (platform: Platform) => {
          const chat = `${mode === 'ordered' ? 1 : 2}${PLATFORMS.indexOf(platform)}77`;
          const texts = Array.from({ length: COUNT }, (_, i) => `${mode} ${platform} message ${i + 1}`);
          const messages = texts.map((text) => chatMessage(fd, platform, chat, ++n, text));
          const statuses: number[] = [];
          if (mode === 'ordered') for (const m of messages) statuses.push(await post(fd, m));
          else statuses.push(...(await Promise.all(messages.map((m) => post(fd, m)))));
          const expected = messages.map((_m, i) =>
            platform === 'discord' ? `You said: /say ${texts[i]}` : `You said: ${texts[i]}`,
          );
          await until(messages[0]!.replies, (r) => r.length >= COUNT);
          checks.push(async () => {
            const replies = await messages[0]!.replies();
            outcome[`${platform}/${mode}`] = {
              acked: statuses.filter((s) => s === ACK[platform]).length,
              replies: replies.length,
              inOrder: mode === 'burst' || JSON.stringify(replies) === JSON.stringify(expected),
              lost: expected.filter((e) => !replies.includes(e)).length,
              twice: replies.length - new Set(replies).size,
            };
          });
        }),
      );
    }
    await healthy();
    await settle(1_500);
    // Late duplicates would show now.
    for (const check of checks) await check();
    const rows = Object.entries(outcome);
    const sum = (k: 'acked' | 'replies' | 'lost' | 'twice') => rows.reduce((s, [, r]) => s + r[k], 0);
    const outOfOrder = rows.filter(([, r]) => !r.inOrder).map(([k]) => k);
    faultLine(
      ctx,
      `fault 3 one-chat-burst: ${PLATFORMS.length} platforms x ${COUNT} messages x 2 (one after another, then all at once) = ${rows.length * COUNT}, ${sum('acked')} acknowledged, ${sum('replies')} replies, ${sum('lost')} lost, ${sum('twice')} twice, ${outOfOrder.length ? `out of order: ${outOfOrder.join(', ')}` : 'ordered ones in order'}`,
    );
    expect(rows.filter(([, r]) => r.acked !== COUNT || r.replies !== COUNT || r.lost || r.twice || !r.inOrder)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable } from '../hooks/support/temp-home.ts';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { ACK, chatMessage, post, recorderPlugin, startFaultDev, type FaultDev, type Platform } from './support/fault-dev.ts';

/**
 * Fault 2: one update delivered many times (platforms redeliver on timeouts): first one after
 * another, then in waves of 20 at once. Every delivery is acknowledged; each update is one turn
 * (the recorder plugin's pre_llm_call) and one reply on the platform API.
 */
const DELIVERIES = size(100, 30);
const WAVE = 20;
// Local chat has no delivery id from the sender (every POST is a new message): not redelivered.
const REDELIVERING: Platform[] = ['telegram', 'slack', 'discord', 'whatsapp', 'teams'];
let fd: FaultDev;

beforeAll(async () => {
  fd = await startFaultDev({ files: { 'config.yaml': enable('recorder'), ...recorderPlugin() } });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

const healthy = () =>
  until(
    async () => (await fetch(`${fd.dev.url}/healthz`)).status,
    (s) => s === 200,
  );

describe('fault 2: duplicate deliveries', () => {
  it('100 deliveries of one update, sequential then 20 at a time → 1 turn, 1 reply, per platform', async (ctx) => {
    const results: { platform: Platform; mode: string; acks: number; turns: number; replies: number }[] = [];
    let n = 500;
    for (const mode of ['sequential', `${WAVE} at a time`] as const) {
      const messages = REDELIVERING.map((platform) => chatMessage(fd, platform, `dup${++n}`, n, `once ${platform} ${mode} ${n}`));
      const statuses = await Promise.all(
        messages.map(async (message) => {
          const got: number[] = [];
          if (mode === 'sequential') for (let i = 0; i < DELIVERIES; i++) got.push(await post(fd, message));
          else
            for (let i = 0; i < DELIVERIES; i += WAVE)
              got.push(...(await Promise.all(Array.from({ length: Math.min(WAVE, DELIVERIES - i) }, () => post(fd, message)))));
          return got;
        }),
      );
      // The reply of each, then no turn in flight, then a moment for any duplicate to show.
      await Promise.all(messages.map((m) => until(m.replies, (r) => r.length >= 1)));
      await healthy();
      await settle(1_500);
      await healthy();
      const recorded = await fd.recorded();
      for (const [i, message] of messages.entries()) {
        const text = `once ${message.platform} ${mode}`;
        results.push({
          platform: message.platform,
          mode,
          acks: statuses[i]!.filter((s) => s === ACK[message.platform]).length,
          turns: recorded.filter((r) => r.hook === 'pre_llm_call' && JSON.stringify(r.kwargs).includes(text)).length,
          replies: (await message.replies()).length,
        });
      }
    }
    const total = (key: 'acks' | 'turns' | 'replies') => results.reduce((sum, r) => sum + r[key], 0);
    const bad = results.filter((r) => r.acks !== DELIVERIES || r.turns !== 1 || r.replies !== 1);
    faultLine(
      ctx,
      `fault 2 duplicate-deliveries: ${REDELIVERING.length} platforms x 2 modes x ${DELIVERIES} deliveries = ${results.length * DELIVERIES} posts, ${total('acks')} acknowledged, ${total('turns')} turns, ${total('replies')} replies (want ${results.length} and ${results.length})${bad.length ? `; off: ${bad.map((r) => `${r.platform}/${r.mode} ${r.turns}t ${r.replies}r ${r.acks}a`).join(', ')}` : ''}`,
    );
    expect(bad).toEqual([]);
  });
});

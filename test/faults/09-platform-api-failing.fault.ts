import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { ACK, chatMessage, post, startFaultDev, type FaultDev, type Platform } from './support/fault-dev.ts';

/**
 * Fault 9: the platform APIs fail for a while — 503s, 429 with the platform's own retry-after
 * (header; Telegram's `parameters.retry_after`), connections cut before an answer — while
 * messages arrive on every platform. Every reply arrives once the API recovers, none twice
 * (counting only sends the fake platform accepted). Retries tuned by HOOKGATE_REPLY_*.
 */
const PER_PHASE = size(10, 2);
const FAILURES = size(6, 3);
const API: Record<Exclude<Platform, 'local'>, string> = {
  telegram: '/telegram/',
  slack: '/slack/',
  discord: '/discord/',
  whatsapp: '/whatsapp/',
  teams: '/teams-service/',
};
const PHASES = ['503', '429 retry-after', 'dropped connection'] as const;
let fd: FaultDev;

beforeAll(async () => {
  fd = await startFaultDev({
    files: { 'config.yaml': '{}\n' },
    env: { HOOKGATE_REPLY_ATTEMPTS: '10', HOOKGATE_REPLY_BACKOFF_MS: '50', HOOKGATE_REPLY_MAX_DELAY_MS: '3000' },
  });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

describe('fault 9: platform APIs failing for a while', () => {
  it('replies arrive after recovery, none twice', async (ctx) => {
    const platforms = Object.keys(API) as (keyof typeof API)[];
    const all: { platform: Platform; replies: () => Promise<string[]> }[] = [];
    let n = 70_000;
    for (const phase of PHASES) {
      for (const platform of platforms) {
        const prefix = API[platform];
        if (phase === '503') fd.fake.failNext(prefix, 503, FAILURES);
        else if (phase === '429 retry-after')
          fd.fake.failNext(prefix, 429, FAILURES, {
            retryAfter: 1,
            retryAfterIn: platform === 'telegram' ? 'telegram' : 'header',
          });
        else fd.fake.dropNext(prefix, FAILURES);
      }
      const sent = platforms.flatMap((platform) =>
        Array.from({ length: PER_PHASE }, (_, i) =>
          chatMessage(fd, platform, `${PHASES.indexOf(phase)}${i}9`, ++n, `${phase} ${platform} ${i}`),
        ),
      );
      for (const message of sent) expect(await post(fd, message)).toBe(ACK[message.platform]);
      await Promise.all(sent.map((m) => until(m.replies, (r) => r.length >= 1)));
      all.push(...sent);
    }
    await until(
      () => fetch(`${fd.dev.url}/healthz`).then((r) => r.status),
      (s) => s === 200,
    );
    await settle(2_000);
    const counts = await Promise.all(all.map((m) => m.replies().then((r) => r.length)));
    const tries = fd.fake.requests.filter((r) => Object.values(API).some((p) => r.path.startsWith(p)));
    const failed = {
      '503': tries.filter((r) => r.status === 503).length,
      '429': tries.filter((r) => r.status === 429).length,
      dropped: tries.filter((r) => r.status === 'dropped').length,
    };
    faultLine(
      ctx,
      `fault 9 platform-api-failing: ${all.length} messages on ${platforms.length} platforms through ${failed['503']} x 503, ${failed['429']} x 429 with retry-after, ${failed.dropped} dropped connections; ${counts.filter((c) => c >= 1).length} answered, ${counts.filter((c) => c === 0).length} lost, ${counts.filter((c) => c > 1).length} twice`,
    );
    expect(failed).toEqual({
      '503': FAILURES * platforms.length,
      '429': FAILURES * platforms.length,
      dropped: FAILURES * platforms.length,
    });
    expect(counts.filter((c) => c !== 1)).toEqual([]);
  });
});

import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable } from '../hooks/support/temp-home.ts';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { recorderPlugin, startFaultDev, type FaultDev, type Platform } from './support/fault-dev.ts';
import { outageSummary, runOutageScenario } from './support/outage-scenario.ts';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.ts';

/**
 * Fault 4, the queues: SQS (with SNS and S3, which fauxqs serves on the same port) unreachable
 * mid-run. `hookgate dev` runs against a fauxqs of the case's own behind a TCP proxy (the
 * `sqsEndpoint` option): the same SDK clients, gateway, pollers and turn consumer as always.
 * The proxy is cut — new connections refused, open ones reset — and restored on the same port.
 * fauxqs keeps its messages meanwhile, as SQS does through an outage (restarting the in-memory
 * emulator would test the emulator losing data, which SQS does not do). Messages go to the
 * five platforms that deliver with an id (the local chat has none, so a retry after an
 * ambiguous failure is a new message by design) before, during and after the outage; a
 * delivery answered 5xx is delivered again after recovery, as the platform would. Every
 * acknowledged (2xx) message gets exactly one reply.
 *
 * SNS goes down with the rest, so the observer events the turns emit meanwhile cannot be
 * published: the sink keeps them in the outbox on the table (which stays up) and the outbox
 * sweeper publishes them after recovery (docs/reliability.md). The recorder plugin's
 * `post_llm_call` observer — run by the observer consumer, behind SNS and the events queue —
 * must see every acknowledged message exactly once: 0 observer events lost, 0 run twice.
 *
 * The turns queue's visibility timeout is 6 × 120 s as deployed, the events queue's 6 × 60 s;
 * the case sets both to 5 s on the running queues, so that a turn (or an observer event) whose
 * delete failed, or whose receive was cut off with its answer, during the outage comes back
 * within the run, and the case watches long enough for it to be answered twice if it would be.
 */
const PLATFORMS: Platform[] = ['telegram', 'slack', 'discord', 'whatsapp', 'teams'];
const PER_PHASE = size(60, 15);
const CHATS = 10;
const OUTAGE_MS = 4_000;
const VISIBILITY_S = 5;

let fd: FaultDev;
let proxy: OutageProxy;
let fauxqs: ReturnType<typeof buildApp>;
/** The dev server's log lines (info and up): counted, kept out of the test output. */
const outageLog = { refused: 0, other: 0, skipped: 0, unpublished: 0, outboxed: 0 };
const stderrWrite = process.stderr.write.bind(process.stderr);
const stdoutWrite = process.stdout.write.bind(process.stdout);
const OUTAGE_ERROR = /ECONNREFUSED|ECONNRESET|socket hang up|EPIPE/;

beforeAll(async () => {
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    // Observer events fail open: one that cannot be published is logged as its hook's failure and dropped.
    if (text.includes('ObserverPublishError')) {
      outageLog.unpublished += 1;
      return true;
    }
    if (OUTAGE_ERROR.test(text)) {
      if (text.includes('answering 503')) outageLog.refused += 1;
      else outageLog.other += 1;
      return true;
    }
    return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (!text.includes('"service":"hookgate-dev"')) return (stdoutWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    if (text.includes('came again after its turn ended')) outageLog.skipped += 1;
    const swept = /observer outbox: published (\d+) event/.exec(text);
    if (swept) outageLog.outboxed += Number(swept[1]);
    return true;
  }) as typeof process.stdout.write;
  fauxqs = buildApp({ logger: false, defaultRegion: 'us-east-1' });
  proxy = await startOutageProxy(await fauxqs.listen({ host: '127.0.0.1', port: 0 }));
  fd = await startFaultDev({
    files: { 'config.yaml': enable('recorder'), ...recorderPlugin() },
    sqsEndpoint: proxy.url,
    env: { HOOKGATE_LOG_LEVEL: 'info' },
  });
  const { aws } = fd.dev;
  const sqs = new SQSClient({ region: aws.region, credentials: aws.credentials, endpoint: aws.sqsEndpoint });
  // Both consumed queues: a receive whose answer the cut resets has left its messages in flight
  // at fauxqs (as at SQS), and they come back only after the visibility timeout. As deployed, that
  // is 6 × 60 s for the events queue, longer than the case waits for the observer runs.
  for (const QueueUrl of [aws.turnsQueueUrl, aws.eventsQueueUrl])
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: { VisibilityTimeout: String(VISIBILITY_S) } }));
  sqs.destroy();
}, 120_000);
afterAll(async () => {
  await proxy?.restore().catch(() => {}); // dev stops cleanly only with its queues reachable
  await fd?.stop();
  await proxy?.close();
  await fauxqs?.close();
  process.stderr.write = stderrWrite;
  process.stdout.write = stdoutWrite;
});

describe('fault 4: SQS unreachable mid-run', () => {
  it('answers 5xx while the queues are unreachable, never a 2xx it cannot keep; after recovery every acknowledged message is answered once and observed once', async (ctx) => {
    const f = await runOutageScenario(fd, {
      platforms: PLATFORMS,
      perPhase: PER_PHASE,
      chats: CHATS,
      tag: 'queues',
      firstNumber: 50_000,
      outageMs: OUTAGE_MS,
      takeDown: () => proxy.cut(),
      bringBack: () => proxy.restore(),
      // Long enough for a turn whose delete was lost to come back (visibility timeout, then the pollers' backoff).
      watchMs: (VISIBILITY_S + 6) * 1000,
    });
    // Each acknowledged message's post_llm_call observer run, by its text; then a window for a second one.
    const observed = async () => {
      const runs = (await fd.recorded()).filter((r) => r.hook === 'post_llm_call');
      return f.acknowledgedTexts.map((text) => runs.filter((r) => String(r.kwargs.user_message).includes(text)).length);
    };
    const observerStart = Date.now();
    await until(observed, (counts) => counts.every((c) => c >= 1));
    const observedAfter = (Date.now() - observerStart) / 1000;
    await settle(3_000);
    const counts = await observed();
    const events = { lost: counts.filter((c) => c === 0).length, twice: counts.filter((c) => c > 1).length };
    const { head, tail } = outageSummary(f);
    faultLine(
      ctx,
      `fault 4 sqs-outage: ${f.messages} messages on ${PLATFORMS.length} platforms (${PER_PHASE} before, ${PER_PHASE} during a ${f.outageSeconds.toFixed(1)} s outage of SQS/SNS/S3, connections refused and reset; ${PER_PHASE} after); ${head}; ${outageLog.other} other errors logged (pollers, deletes); ${outageLog.unpublished} observer events not published (logged, dropped); ${outageLog.outboxed} kept in the outbox and published after recovery; post_llm_call observed for ${counts.length - events.lost}/${counts.length} acknowledged messages (${events.lost} lost, ${events.twice} twice, the last ${observedAfter.toFixed(1)} s after every reply); ${outageLog.skipped} turn messages delivered again after their turn ended, not run again; ${tail}`,
    );
    expect({ lost: f.lost, twice: f.twice, other: f.other, acknowledged: f.acknowledged }).toEqual({
      lost: 0,
      twice: 0,
      other: 0,
      acknowledged: f.messages,
    });
    expect(f.fivexx).toBeGreaterThan(0); // the outage was seen
    expect(f.twoxxDuring).toBe(0);
    expect({ unpublished: outageLog.unpublished, ...events }).toEqual({ unpublished: 0, lost: 0, twice: 0 });
  });
});

import { randomUUID } from 'node:crypto';
import type { ObserverEvent } from '../src/hooks/observer-sink.ts';
import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { TURN_TRACE_EVENT } from '../src/telemetry/turn-trace-event.ts';
import { summarise, type Bench } from './harness.ts';
import { checkExported, countingSink, exportPhase } from './support/export-phases.ts';
import { startObserverProcess } from './support/observer-process.ts';
import { startOtlpCounter } from './support/otlp-counter.ts';
import { startTurnRig } from './support/turn-rig.ts';
import { ackRate, load, startWebhookGateway, telegramUpdate, WEBHOOK_HEADERS } from './support/webhook-rig.ts';

/**
 * The `webhook-ack` bench's gateway load with OTLP export on against the same load with it off
 * (docs/telemetry.md). The gateway never exports; what export adds is the observer's work —
 * spans built, protobuf encoded, POSTed, an idempotency record per turn — on the same machine
 * and the same emulators. So while the gateway is loaded, each ack is followed by one
 * `hookgate:turn_trace` event on the events topic (a real one, recorded from the `turn`
 * bench's turn, under a new turn id: one turn per message, as in production), and an observer
 * instance in a process of its own takes them; in the export-on rounds it exports them over
 * OTLP/HTTP to a local receiver that counts them. Off and on rounds alternate; each waits for
 * the observer to drain. Fails unless every export-on event was exported and received.
 */
// Fewer than `webhook-ack`'s 600: each phase's turn traces must be drained (and, export on, exported) before the next.
const REQUESTS = Number(process.env.HOOKGATE_BENCH_REQUESTS ?? 300);
const CONCURRENCY = 16;
const ROUNDS = 3;

/** One real turn's `hookgate:turn_trace` payload (the stand-in `run: true` turn, 11 hooks). */
async function recordedTurnTrace(plane: Parameters<typeof startTurnRig>[0]): Promise<Record<string, unknown>> {
  const events: ObserverEvent[] = [];
  const capture = async (batch: readonly ObserverEvent[]) => {
    events.push(...batch);
    return batch.map(() => randomUUID());
  };
  const rig = await startTurnRig(plane, { observerSink: { publish: capture } });
  try {
    await rig.turn();
  } finally {
    await rig.close();
  }
  const trace = events.find((e) => e.type === TURN_TRACE_EVENT);
  if (!trace) throw new Error(`the turn published no ${TURN_TRACE_EVENT} event`);
  return trace.payload;
}

const bench: Bench = async () => {
  // A short events visibility timeout: on a loaded machine a receive the SDK gave up on leaves its
  // messages hidden for the whole timeout (6 minutes by default), and each phase waits for the queue to drain.
  const aws = await startEmulatorsProcess({ eventsVisibilityTimeout: 20 });
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const otlp = await startOtlpCounter();
  const observer = await startObserverProcess(aws, { otlp: otlp.url, pollers: 2 });
  const sink = countingSink(plane.observerSink);
  const queue = { sqs: plane.clients.sqs, url: aws.eventsQueueUrl };
  const gateway = await startWebhookGateway(plane);
  const trace = await recordedTurnTrace(plane);
  const shape = { requests: REQUESTS, concurrency: CONCURRENCY };
  const publishing: Promise<unknown>[] = [];
  const toGateway = async (i: number) => {
    const res = await fetch(`${gateway.url}/webhooks/telegram`, {
      method: 'POST',
      headers: WEBHOOK_HEADERS,
      body: telegramUpdate(i),
    });
    // After the ack, not awaited by the load loop: the turn that message starts runs elsewhere.
    publishing.push(sink.publish([{ type: TURN_TRACE_EVENT, payload: { ...trace, turn_id: `bench-${i}` } }]));
    return res;
  };
  const phase = async (on: boolean, offset: number) =>
    exportPhase(observer, sink, queue, on, async () => {
      const result = await load(toGateway, offset, shape);
      await Promise.all(publishing.splice(0));
      return result;
    });

  try {
    await phase(false, 10_000_000); // warm-up, both paths
    await phase(true, 20_000_000);
    const exportedBefore = observer.exported();
    const off = { wallMs: 0, latencies: [] as number[] };
    const on = { wallMs: 0, latencies: [] as number[] };
    let expected = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const o = (await phase(false, 1_000_000 * (round + 1))).result;
      const e = await phase(true, 1_000_000 * (round + 1) + 500_000);
      off.wallMs += o.wallMs;
      off.latencies.push(...o.latencies);
      on.wallMs += e.result.wallMs;
      on.latencies.push(...e.result.latencies);
      expected += e.turnTraces;
    }
    const exported = checkExported(observer, otlp, expected + exportedBefore);
    const c = summarise(on.latencies);
    const b = summarise(off.latencies);
    return [
      {
        id: 'webhook-ack.otlp',
        name: 'gateway: telegram webhook acks, a turn trace per ack on the events topic, observer exporting OTLP',
        baseline: 'the same load, observer not exporting',
        unit: 'req/s',
        value: ackRate(on),
        baselineValue: ackRate(off),
        better: 'higher',
        goal: 'unchanged, ≈ 1.0',
        notes: `p99 ${c.p99.toFixed(1)} vs ${b.p99.toFixed(1)} ms (${(c.p99 / b.p99).toFixed(2)}x); concurrency ${CONCURRENCY}, ${ROUNDS}×${REQUESTS} requests each; ${exported}`,
      },
    ];
  } finally {
    await gateway.close();
    await observer.stop();
    await otlp.close();
    plane.destroy();
    await aws.stop();
  }
};

export default bench;

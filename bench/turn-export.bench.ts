import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { sample, summarise, type Bench } from './harness.ts';
import { checkExported, countingSink, exportPhase } from './support/export-phases.ts';
import { startObserverProcess } from './support/observer-process.ts';
import { startOtlpCounter } from './support/otlp-counter.ts';
import { startTurnRig } from './support/turn-rig.ts';

/**
 * The `turn` bench's turn with OTLP export on against the same turn with it off (docs/telemetry.md):
 * the turn publishes its observer events (its `hookgate:turn_trace` event included) to the
 * events topic as a deployed turn λ does, and an observer instance in a process of its own (the
 * production consumer, `bench/support/observer-process.ts`) takes them; in the export-on rounds
 * that consumer also exports each turn's spans and the metrics over OTLP/HTTP (protobuf) to a
 * local receiver that counts them. Off and on rounds alternate; each round waits for the
 * observer to drain. The figure fails unless every export-on turn's trace was exported and
 * received. Ratio ≈ 1.0: the export does not slow the turn.
 */
const ROUNDS = 4;
const PER_ROUND = Number(process.env.HOOKGATE_BENCH_TURNS ?? 15);

const bench: Bench = async () => {
  // A short events visibility timeout: on a loaded machine a receive the SDK gave up on leaves its
  // messages hidden for the whole timeout (6 minutes by default), and each phase waits for the queue to drain.
  const aws = await startEmulatorsProcess({ eventsVisibilityTimeout: 20 });
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const otlp = await startOtlpCounter();
  const observer = await startObserverProcess(aws, { otlp: otlp.url, pollers: 2 });
  const sink = countingSink(plane.observerSink);
  const queue = { sqs: plane.clients.sqs, url: aws.eventsQueueUrl };
  const rig = await startTurnRig(plane, { observerSink: sink });
  try {
    await exportPhase(observer, sink, queue, false, rig.turn); // warm-up, both paths
    await exportPhase(observer, sink, queue, true, rig.turn);
    const exportedBefore = observer.exported();
    const off: number[] = [];
    const on: number[] = [];
    let expected = 0;
    for (let round = 0; round < ROUNDS; round++) {
      off.push(...(await exportPhase(observer, sink, queue, false, () => sample(PER_ROUND, rig.turn))).result);
      const phase = await exportPhase(observer, sink, queue, true, () => sample(PER_ROUND, rig.turn));
      on.push(...phase.result);
      expected += phase.turnTraces;
    }
    const exported = checkExported(observer, otlp, expected + exportedBefore);
    const b = summarise(off);
    const c = summarise(on);
    return [
      {
        id: 'turn.otlp',
        name: "turn handler: the `turn` bench's turn, observer events published, observer exporting OTLP (p50)",
        baseline: 'the same turn, observer not exporting (p50)',
        unit: 'ms',
        value: c.p50,
        baselineValue: b.p50,
        better: 'lower',
        goal: 'unchanged, ≈ 1.0',
        notes: `p99 ${c.p99.toFixed(1)} vs ${b.p99.toFixed(1)} ms; n=${c.n}; ${exported}; ${(sink.published / sink.turnTraces).toFixed(1)} observer events per turn`,
      },
    ];
  } finally {
    await rig.close();
    await observer.stop();
    await otlp.close();
    plane.destroy();
    await aws.stop();
  }
};

export default bench;

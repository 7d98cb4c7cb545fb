import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { interleave, summarise, type Bench } from './harness.ts';
import { startTurnRig } from './support/turn-rig.ts';

/**
 * One turn handler invocation (`run: true` on the stand-in model: session resolve,
 * transcript load, two model calls, one `true` in the tool sandbox, every plugin hook fired inline by a
 * no-op plugin, transcript append, trace write, the handled-delivery check and record) against what a turn cannot avoid on the
 * same emulators: the same store calls and the same command through the same sandbox, made directly.
 * The ratio is the loop's and the hooks' overhead over the turn's mandatory I/O.
 */
const ROUNDS = 4;
const PER_ROUND = Number(process.env.HOOKGATE_BENCH_TURNS ?? 15);

const bench: Bench = async () => {
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const rig = await startTurnRig(plane);
  try {
    await rig.turn();
    await rig.bare();
    const { baseline, candidate } = await interleave(ROUNDS, PER_ROUND, rig.bare, rig.turn);
    const b = summarise(baseline);
    const c = summarise(candidate);
    return [
      {
        id: 'turn',
        name: 'turn handler: one "run: true" turn, stand-in model, 11 plugin hooks with a no-op callback each (p50)',
        baseline: 'the same store calls + the same sandboxed command, made directly (p50)',
        unit: 'ms',
        value: c.p50,
        baselineValue: b.p50,
        better: 'lower',
        goal: '<= 1.15',
        notes: `p99 ${c.p99.toFixed(1)} vs ${b.p99.toFixed(1)} ms; n=${c.n}`,
      },
    ];
  } finally {
    await rig.close();
    plane.destroy();
    await aws.stop();
  }
};

export default bench;

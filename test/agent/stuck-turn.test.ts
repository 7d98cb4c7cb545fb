import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnsInFlight } from '../../src/agent/turn/turns-in-flight.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { plugin } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';
import { startTurnHarness, type TurnHarness } from './support/turn-harness.ts';

// Issue 12 item 7: a plugin callback that never settles no longer stops its turn; while the
// turn is in flight past the stuck threshold it shows in the health report, and the missed
// deadline is in the turn's trace.
let h: TurnHarness;
// Every turn in flight counts as stuck: the report is read while the turn waits on the hung callback.
const turnsInFlight = new TurnsInFlight({ stuckAfterMs: 0 });
beforeAll(async () => {
  h = await startTurnHarness({
    files: {
      'config.yaml': 'plugins:\n  enabled: [recorder, hang]\n  callback_timeout: 1\n',
      ...plugin('hang', `ctx.register_hook('pre_llm_call', function neverSettles() { return new Promise(() => {}); });`),
    },
    deps: { turnsInFlight },
  });
});
afterAll(async () => {
  await h?.close();
});

describe('a turn whose plugin callback hangs', () => {
  it('goes on after the deadline; meanwhile it is reported stuck with its turn id; the trace shows the missed deadline', async () => {
    h.model.script({ content: 'answered anyway' });
    const running = h.say('hello');
    const seen = await until(
      () => (turnsInFlight.stuck().length > 0 ? turnsInFlight.stuck() : undefined),
      'the turn reported stuck',
    );
    expect(seen).toEqual([
      { turn_id: expect.stringMatching(/^turn_/), session_key: 'local:c1', age_seconds: expect.any(Number) },
    ]);
    // The same record tells shutdown which session has a running turn (on_session_finalize, §1.13.1).
    expect(turnsInFlight.sessions()).toEqual([expect.any(String)]);
    const result = await running;
    expect(result).toMatchObject({ outcome: 'completed', response: 'answered anyway', turn_id: seen[0]!.turn_id });
    expect(turnsInFlight.report()).toEqual({ status: 'ok' });
    expect(turnsInFlight.sessions()).toEqual([]);
    expect(h.replies.at(-1)!.text).toBe('answered anyway');
    const trace = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const row = trace.find((r) => r.callback === 'neverSettles');
    expect(row).toMatchObject({ hook: 'pre_llm_call', source: 'plugin' });
    expect(row!.decision).toContain('did not settle within 1s');
  });
});

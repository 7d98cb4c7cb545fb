import { describe, expect, it } from 'vitest';
import { TurnHooks } from '../../src/agent/turn/turn-hooks.ts';
import type { LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { ObserverEvent, ObserverSink } from '../../src/hooks/observer-sink.ts';
import { tempEngines } from '../hooks/support/temp-engine.ts';

const load = tempEngines({ print: () => {} });

/** A sink whose publishes the test lets through one by one (or fails), recording what it was handed. */
function heldSink() {
  const handed: string[] = [];
  const published: ObserverEvent[] = [];
  const waiting: { events: readonly ObserverEvent[]; release: (fail?: Error) => void }[] = [];
  const sink: ObserverSink = {
    publish: (events) =>
      new Promise<string[]>((resolve, reject) => {
        handed.push(...events.map((e) => e.type));
        published.push(...events);
        waiting.push({
          events,
          release: (fail) => (fail ? reject(fail) : resolve(events.map((_, i) => `id-${handed.length}-${i}`))),
        });
      }),
  };
  return { sink, handed, published, waiting };
}

/** An engine over an empty hooks home (closed after the test), with `sink` if given. */
async function engineOver(sink?: ObserverSink): Promise<LoadedHookEngine> {
  return (await load({}, sink ? { observerSink: sink } : {})).engine;
}

/** Lets the hand-over chain take its next step (a released publish settles, the next one starts). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** `hooks.flush()` started now: `settled()` says whether it has resolved yet; await `done` for it. */
function startFlush(hooks: TurnHooks): { done: Promise<void>; settled: () => boolean } {
  let settled = false;
  const done = hooks.flush().then(() => {
    settled = true;
  });
  return { done, settled: () => settled };
}

const step = (iteration: number) => ({ platform: 'local', user_id: 'u1', session_id: 's1', iteration, tool_names: [] });

describe('TurnHooks: observer events handed to the pipeline', () => {
  it('go out one after another in the order fired, without holding the turn up; flush waits for them', async () => {
    const { sink, handed, waiting } = heldSink();
    const engine = await engineOver(sink);
    expect(engine.publishesObservers).toBe(true);
    const hooks = new TurnHooks(engine, createMemoryLogger(), { session_id: 's1', turn_id: 't1' });

    // Three events fired: each observe returns at once, though no publish has finished.
    await hooks.observe('agent:start', { platform: 'local', user_id: 'u1', session_id: 's1', message: 'hi' });
    await hooks.observe('agent:step', step(1));
    await hooks.observe('agent:end', { platform: 'local', user_id: 'u1', session_id: 's1', message: 'hi', response: 'ok' });
    // The trace has them in the order fired, at once.
    expect(hooks.trace.map((r) => [r.hook, r.call, r.decision])).toEqual([
      ['agent:start', 1, 'emitted'],
      ['agent:step', 2, 'emitted'],
      ['agent:end', 3, 'emitted'],
    ]);
    // One publish at a time: the second is handed over only once the first is.
    await nextTurn();
    expect(handed).toEqual(['agent:start']);
    const flush = startFlush(hooks);
    waiting.shift()!.release();
    await nextTurn();
    expect(handed).toEqual(['agent:start', 'agent:step']);
    expect(flush.settled()).toBe(false);
    waiting.shift()!.release(new Error('SNS and the outbox are both down'));
    await nextTurn();
    expect(handed).toEqual(['agent:start', 'agent:step', 'agent:end']);
    expect(flush.settled()).toBe(false);
    waiting.shift()!.release();
    await flush.done;
    // A failed hand-over is the event's own: said in its trace record and span, the rest went on.
    expect(hooks.trace.map((r) => r.decision)).toEqual(['emitted', 'error: Error: SNS and the outbox are both down', 'emitted']);
    const spans = hooks.spans.operations.filter((o) => o.kind === 'hook');
    expect(spans.map((o) => o.kind === 'hook' && [o.hook, o.decision])).toEqual([
      ['agent:start', 'emitted'],
      ['agent:step', 'error: Error: SNS and the outbox are both down'],
      ['agent:end', 'emitted'],
    ]);
  });

  it('given up (the invocation stops waiting): those not handed over say so, and a late hand-over changes nothing', async () => {
    const { sink, waiting } = heldSink();
    const engine = await engineOver(sink);
    const hooks = new TurnHooks(engine, createMemoryLogger(), { session_id: 's1', turn_id: 't1' });
    await hooks.observe('agent:start', { platform: 'local', user_id: 'u1', session_id: 's1', message: 'hi' });
    await hooks.observe('agent:step', step(1));
    await hooks.observe('agent:step', step(2));
    await nextTurn();
    waiting.shift()!.release();
    await nextTurn();
    // The first went out; the second is in flight, the third queued behind it.
    expect(hooks.giveUpHandOvers('not handed over by the deadline')).toBe(2);
    const given = 'error: not handed over by the deadline';
    expect(hooks.trace.map((r) => [r.hook, r.decision, r.outcome])).toEqual([
      ['agent:start', 'emitted', 'emitted'],
      ['agent:step', given, given],
      ['agent:step', given, given],
    ]);
    const spans = () => hooks.spans.operations.map((o) => o.kind === 'hook' && o.decision);
    expect(spans()).toEqual(['emitted', given, given]);
    // The hand-over in flight settles after all: what was stored as given up stays so.
    waiting.shift()!.release();
    await nextTurn();
    waiting.shift()!.release(new Error('late'));
    await hooks.flush();
    expect(hooks.trace.map((r) => r.decision)).toEqual(['emitted', given, given]);
    expect(spans()).toEqual(['emitted', given, given]);
    expect(hooks.giveUpHandOvers('again')).toBe(0);
  });

  it("an inline event's hooks run here (§1.14); its publish, marked as run, is handed over like the rest; without a sink all is awaited", async () => {
    const { sink, handed, published, waiting } = heldSink();
    const engine = await engineOver(sink);
    const hooks = new TurnHooks(engine, createMemoryLogger(), { session_id: 's1', turn_id: 't1' });
    await hooks.observe('agent:start', { platform: 'local', user_id: 'u1', session_id: 's1', message: 'hi' });
    // Returns once its hooks have run, though neither publish has gone out.
    await hooks.observe('agent:step', step(1), { inline: true });
    await nextTurn();
    expect(handed).toEqual(['agent:start']);
    const flush = startFlush(hooks);
    waiting.shift()!.release();
    await nextTurn();
    // In the order fired, behind the one before it; the flush waits for it too.
    expect(handed).toEqual(['agent:start', 'agent:step']);
    expect(published.map((e) => [e.type, e.ran_at_source === true])).toEqual([
      ['agent:start', false],
      ['agent:step', true],
    ]);
    expect(flush.settled()).toBe(false);
    waiting.shift()!.release();
    await flush.done;
    // Traced once, as a call whose hooks ran here (no hand-over record of its own).
    expect(hooks.trace.map((r) => [r.hook, r.decision])).toEqual([
      ['agent:start', 'emitted'],
      ['agent:step', 'emitted'],
    ]);

    expect((await engineOver()).publishesObservers).toBe(false);
  });
});

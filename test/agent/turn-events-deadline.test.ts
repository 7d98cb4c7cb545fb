import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnHandler } from '../../src/agent/turn-handler.ts';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { asFunction } from '../support/function-identity.ts';
import { startTurnHarness, userMessage, type TurnHarness } from './support/turn-harness.ts';

let h: TurnHarness;
let stuck: LoadedHookEngine;
beforeAll(async () => {
  h = await startTurnHarness();
  // An engine whose observer events never get handed over (SNS hanging, say).
  stuck = await createHookEngine({
    home: h.home.path,
    print: () => {},
    logger: createMemoryLogger(),
    observerSink: { publish: () => new Promise(() => {}) },
  });
});
afterAll(async () => {
  await stuck?.close();
  await h?.close();
});

/** docs/data-plane.md: a turn does not wait for its events, and not past its deadline at its end either. */
describe('a turn whose observer events hang', () => {
  it('replies, then gives up waiting for them a grace past its deadline, and the delivery is still recorded as handled', async () => {
    const logger = createMemoryLogger();
    const handler = createTurnHandler({ ...h.deps, engine: stuck, logger, handled: h.plane.dedup });
    h.model.script({ content: 'hi there' });
    const message = userMessage('hello', 'hang');
    // 11 s left: the turn's deadline is 1 s away (DEADLINE_MARGIN_MS = 10 s), its events' grace 3 s past that.
    const context = { getRemainingTimeInMillis: () => 11_000 };
    const out = await asFunction('turn', () =>
      handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never, context),
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(h.replies.map((r) => r.text)).toContain('hi there');
    // Recorded as handled: a redelivery (the invocation cut off) would not run the turn and reply again.
    expect(await h.plane.dedup.wasHandled(message.delivery_id)).toBe(true);
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toContainEqual(
      expect.stringMatching(/\d+ observer event\(s\) were still being handed over 3000 ms past the invocation's deadline/),
    );
    // The stored trace does not show them as emitted: each says it was not handed over, and how long it waited.
    const session = await h.plane.sessions.current(message.session_key);
    const events = (await h.deps.traces!.listSession(session!.session_id)).filter((r) => r.phase === 'observe');
    expect(events.map((r) => r.hook)).toContain('agent:start');
    for (const record of events) {
      expect(record.decision).toBe("error: not handed over by 3000 ms past the invocation's deadline");
      expect(record.outcome).toBe(record.decision);
      expect(record.duration_ms).toBeGreaterThan(0);
    }
    // The turn-trace event hangs the same way; the hook trace itself is stored.
    expect(warnings).toContainEqual(expect.stringMatching(/its trace was still being stored or published 3000 ms past/));
  }, 30_000);

  it("a delegated child's events are not waited for past the grace either (nor its inline subagent_stop's publish), and say they were not handed over", async () => {
    const logger = createMemoryLogger();
    const handler = createTurnHandler({ ...h.deps, engine: stuck, logger, handled: h.plane.dedup });
    h.model.script(
      { tool_calls: [{ name: 'delegate_task', arguments: { goal: 'look around' } }] },
      { content: 'child done' },
      { content: 'parent done' },
    );
    const message = userMessage('delegate it', 'hang-child');
    const context = { getRemainingTimeInMillis: () => 11_000 };
    const out = await asFunction('turn', () =>
      handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never, context),
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(await h.plane.dedup.wasHandled(message.delivery_id)).toBe(true);
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /\d+ observer event\(s\) were still being handed over 3000 ms past the invocation's deadline; the subagent returns/,
      ),
    );
    // The child's records, in the parent's trace under the child's id, say so too.
    const session = await h.plane.sessions.current(message.session_key);
    const records = await h.deps.traces!.listSession(session!.session_id);
    const childEvents = records.filter((r) => r.phase === 'observe' && / \[subagent_/.test(r.hook));
    expect(childEvents.length, JSON.stringify(records.map((r) => [r.hook, r.phase, r.decision]))).toBeGreaterThan(0);
    for (const record of childEvents)
      expect(record.decision).toBe("error: not handed over by 3000 ms past the invocation's deadline");
  }, 40_000);
});

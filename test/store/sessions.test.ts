import { describe, expect, it } from 'vitest';
import { DynamoSessionStore } from '../../src/store/dynamo-session-store.ts';
import type { SessionMeta } from '../../src/store/session-store.ts';
import { lossyTable } from './lossy-table.ts';
import { withTable } from './with-table.ts';

const meta: SessionMeta = { platform: 'telegram', chat_id: '42', thread_id: '', user_id: '7', chat_type: 'dm' };

describe('DynamoSessionStore', () => {
  const { table, aws } = withTable();

  it('creates a session once and returns it to later turns', async () => {
    const sessions = new DynamoSessionStore(table());
    const first = await sessions.resolve('telegram:42:', meta);
    expect(first.created).toBe(true);
    expect(first.session).toMatchObject({ platform: 'telegram', chat_id: '42', thread_id: '', user_id: '7', turn_count: 0 });
    const again = await sessions.resolve('telegram:42:', meta);
    expect(again.created).toBe(false);
    expect(again.session.session_id).toBe(first.session.session_id);
  });

  it('a new session whose put was stored but its answer lost, then sent again by the SDK, is still created by it', async () => {
    const { table: lossy, lost } = lossyTable(aws(), 'PutItem');
    try {
      const first = await new DynamoSessionStore(lossy).resolve('telegram:lost-answer:', meta);
      expect(lost()).toBe(1);
      // Created (its session-start hooks fire), and the one stored.
      expect(first.created).toBe(true);
      expect((await new DynamoSessionStore(table()).current('telegram:lost-answer:'))?.session_id).toBe(first.session.session_id);
    } finally {
      lossy.doc.destroy();
    }
  });

  it('a turn whose count was stored but its answer lost, then sent again by the SDK, is counted once', async () => {
    const { session } = await new DynamoSessionStore(table()).resolve('telegram:lost-count:', meta);
    const { table: lossy, lost } = lossyTable(aws(), 'UpdateItem');
    try {
      await new DynamoSessionStore(lossy).recordTurn('telegram:lost-count:', session.session_id, 'turn_once');
      expect(lost()).toBe(1);
      expect((await new DynamoSessionStore(table()).current('telegram:lost-count:'))?.turn_count).toBe(1);
    } finally {
      lossy.doc.destroy();
    }
  });

  it('agrees on one new session when turns race to create it', async () => {
    const sessions = new DynamoSessionStore(table());
    const results = await Promise.all(Array.from({ length: 10 }, () => sessions.resolve('slack:C1:', meta)));
    expect(new Set(results.map((r) => r.session.session_id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('expires an idle session and reports the old one', async () => {
    const sessions = new DynamoSessionStore(table());
    const t0 = new Date('2026-01-01T00:00:00Z');
    const { session: old } = await sessions.resolve('wa:1:', meta, { now: t0 });
    const later = await sessions.resolve('wa:1:', meta, { idleSeconds: 60, now: new Date(t0.getTime() + 61_000) });
    expect(later.created).toBe(true);
    expect(later.expired?.session_id).toBe(old.session_id);
    expect(later.session.session_id).not.toBe(old.session_id);
    expect(later.session.fresh).toBe(true);
  });

  it('records turns and rotates on /new', async () => {
    const sessions = new DynamoSessionStore(table());
    const { session } = await sessions.resolve('discord:5:', meta);
    await sessions.recordTurn('discord:5:', session.session_id, 'turn_1');
    await sessions.recordTurn('discord:5:', session.session_id, 'turn_2');
    await sessions.recordTurn('discord:5:', session.session_id, 'turn_2'); // the same turn again: counted once
    expect((await sessions.current('discord:5:'))?.turn_count).toBe(2);
    const { old, current } = await sessions.rotate('discord:5:', meta);
    expect(old?.session_id).toBe(session.session_id);
    expect(current).toMatchObject({ turn_count: 0, fresh: true });
    // A late recordTurn for the old session does not touch the new one.
    await sessions.recordTurn('discord:5:', session.session_id, 'turn_3');
    expect((await sessions.current('discord:5:'))?.turn_count).toBe(0);
  });

  it("claims a session's first run with the note of a starting turn: its delivery keeps it (a redelivery too), another does not, a refusal gives it back, a new session starts over", async () => {
    const sessions = new DynamoSessionStore(table());
    const { session } = await sessions.resolve('discord:7:', meta);
    const turn = (id: string) => ({ turn_id: id, platform: 'discord', user_id: '7', started_at: new Date().toISOString() });
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t1'), 'd-1')).toBe(true);
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t2'), 'd-2')).toBe(false);
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t1b'), 'd-1')).toBe(true);
    // A resume notes the turn without claiming anything.
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t1'))).toBe(false);
    expect((await sessions.current('discord:7:'))?.last_turn?.turn_id).toBe('t1');
    // Only its holder gives a first run back.
    await sessions.releaseFirstRun('discord:7:', session.session_id, 'd-2');
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t3'), 'd-3')).toBe(false);
    await sessions.releaseFirstRun('discord:7:', session.session_id, 'd-1');
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t4'), 'd-4')).toBe(true);
    const { current } = await sessions.rotate('discord:7:', meta);
    expect(await sessions.noteTurnStarted('discord:7:', current.session_id, turn('t5'), 'd-4')).toBe(true);
    expect(await sessions.noteTurnStarted('discord:7:', current.session_id, turn('t6'), 'd-5')).toBe(false);
    // A session the chat has left: its turn goes on as the first it would have been.
    expect(await sessions.noteTurnStarted('discord:7:', session.session_id, turn('t7'), 'd-6')).toBe(true);
  });

  it('lets only one of two concurrent rotations replace the session', async () => {
    // Both rotations read the session before either writes: the race the conditional swap decides. (Left to
    // the scheduler, the second read could come after the first write: two rotations in a row, not a race.)
    const sessions = new (class extends DynamoSessionStore {
      private readers: (() => void)[] = [];
      override async current(sessionKey: string) {
        const record = await super.current(sessionKey);
        if (this.readers.length < 2) {
          await new Promise<void>((resolve) => {
            this.readers.push(resolve);
            if (this.readers.length === 2) for (const go of this.readers) go();
          });
        }
        return record;
      }
    })(table());
    const { session } = await new DynamoSessionStore(table()).resolve('teams:9:', meta);
    const [a, b] = await Promise.all([sessions.rotate('teams:9:', meta), sessions.rotate('teams:9:', meta)]);
    expect(a.old?.session_id).toBe(session.session_id);
    expect(b.old?.session_id).toBe(session.session_id);
    expect(a.current.session_id).toBe(b.current.session_id);
    expect((await sessions.current('teams:9:'))?.session_id).toBe(a.current.session_id);
  });

  it('answers stop requests made since a turn started', async () => {
    const sessions = new DynamoSessionStore(table());
    const start = new Date('2026-01-01T00:00:00Z');
    expect(await sessions.stopRequested('local:1:', start)).toBe(false);
    await sessions.requestStop('local:1:', new Date(start.getTime() + 1000));
    expect(await sessions.stopRequested('local:1:', start)).toBe(true);
    expect(await sessions.stopRequested('local:1:', new Date(start.getTime() + 2000))).toBe(false);
  });
});

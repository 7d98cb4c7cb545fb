import { expect, it } from 'vitest';
import { TurnsInFlight } from '../../src/agent/turn/turns-in-flight.ts';

it('lists each session with a running turn once, in start order, until its last turn ends; ending twice is harmless', () => {
  const turns = new TurnsInFlight();
  const endA1 = turns.begin({ turn_id: 't1', session_key: 'local:a', session_id: 'sa' });
  const endB = turns.begin({ turn_id: 't2', session_key: 'local:b', session_id: 'sb' });
  const endA2 = turns.begin({ turn_id: 't3', session_key: 'local:a', session_id: 'sa' });
  expect(turns.sessions()).toEqual(['sa', 'sb']);
  endA1();
  endA1();
  expect(turns.sessions()).toEqual(['sb', 'sa']);
  endA2();
  endB();
  expect(turns.sessions()).toEqual([]);
  expect(turns.report()).toEqual({ status: 'ok' });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { enable, plugin } from '../hooks/support/temp-home.ts';
import { startTurnHarness, type TurnHarness } from './support/turn-harness.ts';

// A trace record keeps what a callback returned as JSON; values JSON has no form for must not
// lose the record (turn-hooks.ts, jsonOf).
let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness({
    files: {
      'config.yaml': enable('recorder', 'odd'),
      ...plugin(
        'odd',
        `ctx.register_hook('pre_llm_call', function big() { return { count: 12345678901234567890n, label: 'big' }; });
         ctx.register_hook('pre_llm_call', function loop() { const o: any = { label: 'cyclic' }; o.self = o; return o; });`,
      ),
    },
  });
});
afterAll(async () => {
  await h?.close();
});

it('a BigInt in a callback result is kept as its digits, a cyclic result as its text, and the turn goes on', async () => {
  h.model.script({ content: 'fine' });
  const result = await h.say('hello', 'bigint');
  expect(result).toMatchObject({ outcome: 'completed', response: 'fine' });
  const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
  const odd = records.filter((r) => r.hook === 'pre_llm_call' && r.source === 'plugin' && /big|loop/.test(r.callback));
  expect(odd.map((r) => [r.callback, r.result])).toEqual([
    [expect.stringContaining('big'), '{"count":"12345678901234567890","label":"big"}'],
    [expect.stringContaining('loop'), '[object Object]'],
  ]);
});

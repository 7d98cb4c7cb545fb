import { afterAll, beforeAll, expect, it } from 'vitest';
import { OpenAiTransport } from '../../src/agent/model/openai-transport.ts';
import type { SessionStore } from '../../src/store/session-store.ts';
import { startTurnHarness, type TurnHarness } from './support/turn-harness.ts';

// The turn writes whose turn it is (`last_turn`, which /stop checks) while it loads its history,
// and must have written it before anything leaves the turn. A slow write makes a missing wait show.
let h: TurnHarness;
let noted = false;
const notedAtModelCall: boolean[] = [];

beforeAll(async () => {
  let real: SessionStore | undefined;
  const sessions = new Proxy({} as SessionStore, {
    get: (_, name: keyof SessionStore) =>
      name === 'noteTurnStarted'
        ? async (...args: Parameters<SessionStore['noteTurnStarted']>) => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            const firstRun = await real!.noteTurnStarted(...args);
            noted = true;
            return firstRun;
          }
        : (real![name] as (...args: unknown[]) => unknown).bind(real),
  });
  h = await startTurnHarness({
    deps: { sessions },
    transport: (model) => {
      const transport = new OpenAiTransport({ model: 'fake-model', baseUrl: model.baseUrl, apiKey: 'test-key' });
      const send = transport.send.bind(transport);
      transport.send = (...args) => {
        notedAtModelCall.push(noted);
        return send(...args);
      };
      return transport;
    },
  });
  real = h.plane.sessions;
});
afterAll(async () => {
  await h?.close();
});

it('notes the running turn on its session before the first model call', async () => {
  h.model.script({ content: 'hello back' });
  const result = await h.say('hello', 'noted');
  expect(result.outcome).toBe('completed');
  expect(notedAtModelCall).toEqual([true]);
  const session = await h.plane.sessions.current('local:noted');
  expect(session?.last_turn?.turn_id).toBe(result.turn_id);
});

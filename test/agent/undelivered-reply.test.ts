import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandInModel } from '../../src/agent/model/stand-in-model.ts';
import { formatTrace } from '../../src/cli/commands/trace.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createReplier } from '../../src/platforms/create-replier.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { startTurnHarness, type TurnHarness } from './support/turn-harness.ts';

let fake: FakePlatforms;
let h: TurnHarness;
const ATTEMPTS = 3;

beforeAll(async () => {
  fake = await startFakePlatforms();
  const config = loadDeploymentConfig(
    {
      TELEGRAM_BOT_TOKEN: '42:undelivered',
      TELEGRAM_SECRET_TOKEN: 's',
      TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
      HOOKGATE_REPLY_ATTEMPTS: String(ATTEMPTS),
      HOOKGATE_REPLY_BACKOFF_MS: '1',
    },
    { runtime: 'local' },
  );
  h = await startTurnHarness({
    transport: () => new StandInModel(),
    deps: { replier: createReplier(config) },
    files: {
      // A gateway hook that sees the undelivered reply, as an operator's would.
      'hooks/undelivered/HOOK.yaml': 'name: undelivered\nevents: ["reply:undelivered"]\n',
      'hooks/undelivered/handler.ts': `
import { appendFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
export function handle(event: string, context: any) {
  appendFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'undelivered.jsonl'), JSON.stringify({ event, context }) + '\\n');
}
`,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const telegramMessage = (text: string): TurnMessage => {
  const source = { platform: 'telegram', chat_id: '-100', user_id: '7', user_name: '', chat_type: 'group', thread_id: '' };
  return {
    v: 1,
    kind: 'message',
    delivery_id: `telegram:${randomUUID()}`,
    session_key: 'telegram:-100',
    received_at: new Date().toISOString(),
    event: {
      text,
      message_id: '1',
      internal: false,
      source,
      reply: { platform: 'telegram', chat_id: '-100', thread_id: '', extra: {} },
    },
  };
};

describe('a reply the platform never takes', () => {
  it('is retried, then kept: in the trace with its text, and as a reply:undelivered event of the turn', async () => {
    const before = fake.received('/telegram/').length;
    fake.failNext('/telegram/', 502, ATTEMPTS);
    const out = await h.invoke(telegramMessage('keep me'));
    expect(out.batchItemFailures).toEqual([]);
    const result = h.results.at(-1)!;
    expect(result).toMatchObject({ outcome: 'completed', response: 'You said: keep me' });
    expect(fake.received('/telegram/').length - before).toBe(ATTEMPTS);

    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const kept = records.find((r) => r.hook === 'reply');
    expect(kept).toMatchObject({ source: 'platform', callback: 'telegram:-100', text: 'You said: keep me' });
    expect(kept!.decision).toMatch(/^undelivered: telegram reply failed: HTTP 502 .*after 3 tries/);
    expect(formatTrace(records)).toContain('undelivered reply to telegram:-100');
    expect(formatTrace(records)).toContain('  You said: keep me');

    const events = (await readFile(join(h.home.path, 'undelivered.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toEqual([
      {
        event: 'reply:undelivered',
        context: {
          platform: 'telegram',
          chat_id: '-100',
          thread_id: '',
          session_id: expect.any(String),
          turn_id: result.turn_id,
          text: 'You said: keep me',
          error: expect.stringMatching(/HTTP 502/),
          attempts: ATTEMPTS,
        },
      },
    ]);
  });

  it('is delivered, with no undelivered record, when a retry goes through', async () => {
    fake.failNext('/telegram/', 503, ATTEMPTS - 1);
    await h.invoke(telegramMessage('second try'));
    const result = h.results.at(-1)!;
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    expect(records.filter((r) => r.hook === 'reply' || r.hook === 'reply:undelivered')).toEqual([]);
    expect(fake.received('/telegram/').at(-1)!.json).toMatchObject({ text: 'You said: second try' });
  });
});

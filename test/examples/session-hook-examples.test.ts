import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startExamplesDev, type ExamplesDev } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The session plugin examples — session-cache and session-duration (on_session_start,
 * on_session_end), session-rotation (on_session_finalize, on_session_reset) — firing in
 * `hookgate dev` on a copy of the examples home as shipped, with no outside URL configured:
 * the examples that call out (session-webhook, memory-recall, memory-sync) then only say so,
 * once each.
 */
let dev: ExamplesDev;

beforeAll(async () => {
  dev = await startExamplesDev();
});
afterAll(async () => {
  await dev?.stop();
});

let firstSession = '';

describe('session-cache and session-duration (on_session_start, on_session_end)', () => {
  it('flush the new session once, at the end of its first run', async () => {
    expect(await dev.chat('sess-1', 'run: echo one')).toBe('one');
    const cache = await dev.logWhen('session-cache.log', (t) => t.includes('ended'), 'the session-cache line');
    const flushed = /^Session (\S+) ended: completed \(model=hookgate-local-stand-in, platform=local, started=(\S+)\)\n$/.exec(
      cache,
    );
    expect(flushed, cache).not.toBeNull();
    firstSession = flushed![1]!;
    expect(Number.isNaN(Date.parse(flushed![2]!))).toBe(false);

    const duration = await dev.logWhen(
      'session-duration.log',
      (t) => t.includes('SESSION_DURATION'),
      'the SESSION_DURATION line',
    );
    expect(duration).toMatch(
      new RegExp(`^SESSION_DURATION session=${firstSession} seconds=\\d+\\.\\d completed=true interrupted=false\\n$`),
    );
  });

  it('write nothing more for the session’s later turns, and one line for another new session', async () => {
    expect(await dev.chat('sess-1', 'hello again')).toBe('You said: hello again');
    expect(await dev.chat('sess-2', 'hello')).toBe('You said: hello');
    const cache = await dev.logWhen('session-cache.log', (t) => t.trim().split('\n').length >= 2, 'a second session-cache line');
    const duration = await dev.logWhen(
      'session-duration.log',
      (t) => t.trim().split('\n').length >= 2,
      'a second SESSION_DURATION line',
    );
    for (const log of [cache, duration]) {
      const lines = log.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines.filter((l) => l.includes(firstSession))).toHaveLength(1);
    }
  });
});

describe('session-rotation (on_session_finalize, on_session_reset)', () => {
  it('logs the old session on finalize and the new one on reset when the user sends /new', async () => {
    await dev.chat('sess-1', '/new');
    const log = await dev.logWhen(
      'session-rotation.log',
      (t) => t.includes('FINALIZE') && t.includes('RESET'),
      'FINALIZE and RESET lines',
    );
    const lines = log
      .trim()
      .split('\n')
      .map((l) => l.replace(/^\S+ /, ''));
    expect(lines).toHaveLength(2);
    expect(lines).toContain(`FINALIZE session=${firstSession} platform=local reason=new_session`);
    const reset = lines.find((l) => l.startsWith('RESET'))!;
    expect(reset).toMatch(new RegExp(`^RESET session=(\\S+) platform=local old=${firstSession} reason=new_session$`));
    expect(reset).not.toContain(`RESET session=${firstSession}`);
  });
});

describe('the examples that call out, with no URL set', () => {
  it('send nothing and say so once each', () => {
    const output = dev.stdout() + dev.stderr();
    const count = (text: string) => output.split(text).length - 1;
    expect(count('SESSION_WEBHOOK_URL is not set')).toBe(1); // three session events so far
    expect(count('MEMORY_API_URL is not set, no memories are recalled')).toBe(1); // four turns
    expect(count('MEMORY_API_URL is not set, no exchanges are stored')).toBe(1);
  });
});

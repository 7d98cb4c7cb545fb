import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';

// Issue 12 item 4 through the running pipeline (`hookgate dev`: gateway → turns queue → turn
// consumer → replies), with the local adapter's user_id as the identity approvals check.
let home: TempHome;
let dev: DevRuntime;

beforeAll(async () => {
  home = await tempHome({ 'config.yaml': '{}\n' });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_HOME: home.path,
    HOOKGATE_APPROVERS: 'local:operator',
    HOOKGATE_LOG_LEVEL: 'error',
  };
  delete env.HOOKGATE_MODEL_BASE_URL;
  delete env.HOOKGATE_ALLOWED_USERS;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});
afterAll(async () => {
  await dev?.stop();
  await home?.remove();
});

async function messages(chatId: string): Promise<string[]> {
  const res = await fetch(`${dev.url}/webhooks/local/messages?chat_id=${chatId}`);
  return ((await res.json()) as { text: string }[]).map((m) => m.text);
}

/** Posts as `user` in `chat` and returns the next `count` replies in that chat. */
async function say(chat: string, user: string, text: string, count = 1): Promise<string[]> {
  const before = (await messages(chat)).length;
  const posted = await fetch(`${dev.url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chat, user_id: user, text }),
  });
  expect(posted.status).toBe(202);
  return until(async () => {
    const now = await messages(chat);
    return now.length >= before + count ? now.slice(before, before + count) : undefined;
  }, `${count} repl(ies) in ${chat}`);
}

// The stand-in model answers a read with the file's content, a failed read with `Error: …`.
const fileIsThere = async (chat: string, user: string) => (await say(chat, user, 'read: keep.txt'))[0] === 'keep me';

describe('approvals belong to someone (through hookgate dev)', () => {
  it('shared chat: another user cannot answer; other chat: an always grant does not travel', { timeout: 90_000 }, async () => {
    // alice asks for `rm -rf *` in a shared chat.
    await say('shared', 'alice', 'write: keep.txt\nkeep me');
    const [question] = await say('shared', 'alice', 'run: rm -rf *');
    expect(question).toContain('needs your approval');

    // mallory, in the same chat, answers /approve always: refused, nothing runs, nothing is granted.
    const [refusal] = await say('shared', 'mallory', '/approve always');
    expect(refusal).toMatch(
      /^⛔ Only the user who asked for this command, or an approver, can answer this approval\. Nothing was changed\./,
    );
    expect(await fileIsThere('shared', 'alice')).toBe(true);
    // Nor does she see alice's command in /status; alice does.
    expect(await say('shared', 'mallory', '/status')).toEqual([
      expect.stringContaining('Pending approval: a command of local:alice (only they or an approver see it)'),
    ]);
    expect(await say('shared', 'alice', '/status')).toEqual([expect.stringContaining('Pending approval: rm -rf *')]);

    // alice herself answers /approve always: it runs, and the grant holds in this chat.
    const [ack, ran] = await say('shared', 'alice', '/approve always', 2);
    expect(ack).toBe('✅ Approved always in this chat.');
    expect(ran).toBe('(no output)');
    expect(await fileIsThere('shared', 'alice').catch(() => false)).toBe(false);

    // carol, in another chat, runs the same command: she is asked, and nothing ran.
    await say('elsewhere', 'carol', 'write: keep.txt\nkeep me');
    const [asked] = await say('elsewhere', 'carol', 'run: rm -rf *');
    expect(asked).toContain('needs your approval');
    expect(await fileIsThere('elsewhere', 'carol')).toBe(true);
    // Nor can alice (a stranger to this approval) answer it from there.
    expect(await say('elsewhere', 'alice', '/approve')).toEqual([expect.stringMatching(/^⛔ Only the user who asked/)]);
    expect(await say('elsewhere', 'carol', '/deny', 2)).toEqual(['❌ Denied.', expect.any(String)]);
    expect(await fileIsThere('elsewhere', 'carol')).toBe(true);
  });

  it('/stop: another user of the chat cannot stop a running turn; its requester and an approver can', {
    timeout: 120_000,
  }, async () => {
    /** `user`'s /stop, sent until a turn is seen running (the turn notes itself as it starts). */
    const stopWhileRunning = async (user: string): Promise<string> => {
      return until(
        async () => {
          const [reply] = await say('group', user, '/stop');
          return reply !== 'Nothing is running in this conversation.' ? reply : undefined;
        },
        `a running turn ${user} can try to stop`,
        { timeoutMs: 90_000 },
      );
    };
    const before = (await messages('group')).length;
    await fetch(`${dev.url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'group', user_id: 'alice', text: 'run: sleep 2' }),
    });
    expect(await stopWhileRunning('mallory')).toMatch(
      /^⛔ Only the user who asked for the running turn, or an approver, can stop it\./,
    );
    // alice's turn ran to its end: the command's (empty) output, not "Stopped".
    const ended = await until(
      async () => {
        const texts = (await messages('group'))
          .slice(before)
          .filter((t) => !t.startsWith('⛔') && !t.startsWith('Nothing is running'));
        return texts.length > 0 ? texts : undefined;
      },
      "the end of alice's turn",
      { timeoutMs: 60_000 },
    );
    expect(ended).toEqual(['(no output)']);
    for (const stopper of ['alice', 'operator']) {
      const from = (await messages('group')).length;
      await fetch(`${dev.url}/webhooks/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: 'group', user_id: 'alice', text: 'run: sleep 2' }),
      });
      expect(await stopWhileRunning(stopper)).toBe('⏹ Stopping the current turn.');
      await until(
        async () => {
          const texts = (await messages('group')).slice(from);
          expect(texts).not.toContain('(no output)');
          return texts.includes('⏹ Stopped.');
        },
        `the turn stopped by ${stopper}`,
        { timeoutMs: 60_000 },
      );
    }
  });

  it('an operator in HOOKGATE_APPROVERS can answer anyone’s approval, and grant it for every chat', async () => {
    const [question] = await say('ops-1', 'dave', 'run: sudo -n true');
    expect(question).toContain('needs your approval');
    const [ack] = await say('ops-1', 'operator', '/approve always global', 2);
    expect(ack).toBe('✅ Approved always, in every chat.');
    // Another chat, another user: no question any more.
    const [answer] = await say('ops-2', 'erin', 'run: sudo -n true');
    expect(answer).not.toContain('needs your approval');
    // Nothing in flight: the dev server's /healthz is plainly ok.
    expect(await (await fetch(`${dev.url}/healthz`)).text()).toBe('{"status":"ok"}');
  });
});

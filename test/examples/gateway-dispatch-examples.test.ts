import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startExamplesDev, type ExamplesDev } from './support/examples-dev.ts';

// Each test chats through a whole pipeline on a shared two-core machine: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/*
 * The pre_gateway_dispatch examples, deny-unauthorised-dms and ambient-buffer, firing in
 * `hookgate dev`. Both are off in examples/config.yaml (each would change every local chat,
 * which is a DM) and both decide the same hook (the first recognised action wins), so each
 * runs in its own copy of the examples home with only itself enabled, as a user would turn it on.
 */
describe('deny-unauthorised-dms (pre_gateway_dispatch skip)', () => {
  let dev: ExamplesDev;
  beforeAll(async () => {
    dev = await startExamplesDev({ enable: ['deny-unauthorised-dms'], env: { DM_ALLOWED_USERS: 'local:alice, telegram:42' } });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  it('drops a DM from a user not in DM_ALLOWED_USERS without any reply, and answers a listed one', async () => {
    await dev.post('dm-1', 'let me in', 'mallory');
    // Same chat, so the same FIFO session: had mallory's message been let through, its reply would come first.
    expect(await dev.chat('dm-1', 'hello', 'alice')).toBe('You said: hello');
    expect(await dev.replies('dm-1')).toEqual(['You said: hello']);
    expect(dev.stdout() + dev.stderr()).toContain('pre_gateway_dispatch skipped the message: unauthorized-dm');
  });

  it('drops slash commands from strangers too (the hook runs before commands)', async () => {
    await dev.post('dm-2', '/help', 'mallory');
    expect(await dev.chat('dm-2', '/status', 'alice')).toContain('local:dm-2');
    expect(await dev.replies('dm-2')).toHaveLength(1);
  });
});

describe('ambient-buffer (pre_gateway_dispatch skip / rewrite)', () => {
  let dev: ExamplesDev;
  beforeAll(async () => {
    dev = await startExamplesDev({ enable: ['ambient-buffer'] });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  it('keeps unaddressed messages without answering, then answers them all when @hermes is mentioned', async () => {
    await dev.post('room-1', 'the build is red again', 'ann');
    await dev.post('room-1', 'it is the flaky test', 'ben');
    await dev.post('room-2', 'another room', 'cy'); // buffered per chat
    expect(await dev.chat('room-1', '@Hermes what do you think?', 'ann')).toBe(
      'You said: the build is red again\nit is the flaky test\n@Hermes what do you think?',
    );
    expect(await dev.replies('room-1')).toHaveLength(1);
    // The buffer was emptied by the mention.
    expect(await dev.chat('room-1', '@hermes and now?', 'ben')).toBe('You said: @hermes and now?');
    expect(await dev.chat('room-2', 'hi @hermes', 'cy')).toBe('You said: another room\nhi @hermes');
  });
});

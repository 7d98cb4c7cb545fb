import { describe, expect, it } from 'vitest';
import type { AllowlistEntry, AllowlistStore } from '../../src/hooks/shell/consent/allowlist-store.ts';

const entry = (
  event: string,
  command: string,
  approved_at = '2026-01-01T00:00:00Z',
  extra: Partial<AllowlistEntry> = {},
): AllowlistEntry => ({
  approved_at,
  command,
  event,
  script_mtime_at_approval: null,
  ...extra,
});

/**
 * The behaviour every {@link AllowlistStore} must have (hook-semantics §3.9), written once
 * against the interface: the file store and the DynamoDB store both run it.
 *
 * @example
 * describeAllowlistContract('file store', async () => createFileAllowlistStore(await freshHome(), logger));
 */
export function describeAllowlistContract(name: string, makeStore: () => Promise<AllowlistStore>): void {
  describe(`AllowlistStore contract: ${name}`, () => {
    it('starts empty and names its location', async () => {
      const store = await makeStore();
      expect(typeof store.location).toBe('string');
      expect(store.location.length).toBeGreaterThan(0);
      expect(await store.list()).toEqual([]);
      expect(await store.find('pre_tool_call', '/h/a.sh')).toBeUndefined();
    });

    it('records and finds an entry with every field, compared string-equal', async () => {
      const store = await makeStore();
      const full = entry('pre_tool_call', '~/.hermes/agent-hooks/guard.sh', '2026-03-01T12:00:05.123456Z', {
        script_mtime_at_approval: '2026-03-01T11:58:40Z',
        script_sha256_at_approval: 'ab'.repeat(32),
      });
      expect(await store.record(full)).toBe(true);
      expect(await store.find('pre_tool_call', '~/.hermes/agent-hooks/guard.sh')).toEqual(full);
      expect(await store.find('post_tool_call', '~/.hermes/agent-hooks/guard.sh')).toBeUndefined();
      expect(await store.find('pre_tool_call', '~/.hermes/agent-hooks/guard.sh ')).toBeUndefined();
      expect(await store.find('pre_tool_call', '~/.hermes/agent-hooks/GUARD.sh')).toBeUndefined();
    });

    it('keeps one entry per (event, command); re-approval replaces it and moves it to the end', async () => {
      const store = await makeStore();
      await store.record(entry('pre_tool_call', '/h/a.sh'));
      await store.record(entry('post_tool_call', '/h/a.sh'));
      await store.record(entry('pre_tool_call', '/h/b #x "q" é ✓.sh'));
      await store.record(entry('pre_tool_call', '/h/a.sh', '2026-02-02T00:00:00.5Z'));
      expect((await store.list()).map((e) => [e.event, e.command, e.approved_at])).toEqual([
        ['post_tool_call', '/h/a.sh', '2026-01-01T00:00:00Z'],
        ['pre_tool_call', '/h/b #x "q" é ✓.sh', '2026-01-01T00:00:00Z'],
        ['pre_tool_call', '/h/a.sh', '2026-02-02T00:00:00.5Z'],
      ]);
      expect(await store.find('pre_tool_call', '/h/b #x "q" é ✓.sh')).toBeDefined();
    });

    it('revoke removes every entry of exactly that command, whatever the event', async () => {
      const store = await makeStore();
      await store.record(entry('pre_llm_call', '/h/c.sh'));
      await store.record(entry('post_llm_call', '/h/c.sh'));
      await store.record(entry('post_llm_call', '/h/c.sh '));
      await store.record(entry('post_llm_call', '/h/d.sh'));
      expect(await store.revoke('/h/c.sh')).toBe(2);
      expect(await store.revoke('/h/c.sh')).toBe(0);
      expect(await store.revoke('/h/nope.sh')).toBe(0);
      expect((await store.list()).map((e) => e.command)).toEqual(['/h/c.sh ', '/h/d.sh']);
    });

    it('32 parallel approvals of distinct commands all persist', async () => {
      const store = await makeStore();
      const commands = Array.from({ length: 32 }, (_, i) => `/h/parallel-${i}.sh`);
      const results = await Promise.all(commands.map((c) => store.record(entry('on_session_start', c))));
      expect(results.every(Boolean)).toBe(true);
      const listed = (await store.list()).map((e) => e.command).sort();
      expect(listed).toEqual([...commands].sort());
    });
  });
}

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { createFileAllowlistStore } from '../../src/hooks/shell/consent/file-allowlist-store.ts';
import { describeAllowlistContract } from '../support/allowlist-contract.ts';

const root = mkdtempSync(join(tmpdir(), 'hookgate-allow-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const freshHome = () => mkdtempSync(join(root, 'home-'));

describeAllowlistContract('file store', async () => createFileAllowlistStore(freshHome(), createMemoryLogger()));

describe('file allowlist format and writes (§3.9)', () => {
  it('writes the exact file format: sorted keys, 2-space indent, \\u escapes, no trailing newline', async () => {
    const home = freshHome();
    const store = createFileAllowlistStore(home, createMemoryLogger());
    await store.record({
      event: 'pre_tool_call',
      command: '~/.hermes/agent-hooks/guard.sh',
      approved_at: '2026-03-01T12:00:05.123456Z',
      script_mtime_at_approval: '2026-03-01T11:58:40Z',
      script_sha256_at_approval: null,
    });
    await store.record({
      event: 'on_session_start',
      command: 'python3 /opt/é/😀.py',
      approved_at: '2026-03-01T12:00:06Z',
      script_mtime_at_approval: null,
    });
    const path = join(home, 'shell-hooks-allowlist.json');
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '{',
        '  "approvals": [',
        '    {',
        '      "approved_at": "2026-03-01T12:00:05.123456Z",',
        '      "command": "~/.hermes/agent-hooks/guard.sh",',
        '      "event": "pre_tool_call",',
        '      "script_mtime_at_approval": "2026-03-01T11:58:40Z",',
        '      "script_sha256_at_approval": null',
        '    },',
        '    {',
        '      "approved_at": "2026-03-01T12:00:06Z",',
        '      "command": "python3 /opt/\\u00e9/\\ud83d\\ude00.py",',
        '      "event": "on_session_start",',
        '      "script_mtime_at_approval": null',
        '    }',
        '  ]',
        '}',
      ].join('\n'),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(`${path}.lock`)).toBe(true);
    expect(readdirSync(home).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await store.revoke('~/.hermes/agent-hooks/guard.sh');
    await store.revoke('python3 /opt/é/😀.py');
    expect(readFileSync(path, 'utf8')).toBe('{\n  "approvals": []\n}');
    expect(existsSync(`${path}.lock`)).toBe(true); // never deleted
  });

  it('preserves unknown top-level keys and malformed entries; sorts everything', async () => {
    const home = freshHome();
    const path = join(home, 'shell-hooks-allowlist.json');
    writeFileSync(path, JSON.stringify({ zeta: { b: 1, a: [true, 'ü'] }, approvals: [5, { event: 'x' }], alpha: 'keep' }));
    const store = createFileAllowlistStore(home, createMemoryLogger());
    expect(await store.list()).toEqual([]);
    await store.record({
      event: 'post_llm_call',
      command: '/h/a.sh',
      approved_at: '2026-01-01T00:00:00Z',
      script_mtime_at_approval: null,
    });
    expect(readFileSync(path, 'utf8')).toBe(
      '{\n  "alpha": "keep",\n  "approvals": [\n    5,\n    {\n      "event": "x"\n    },\n    {\n      "approved_at": "2026-01-01T00:00:00Z",\n' +
        '      "command": "/h/a.sh",\n      "event": "post_llm_call",\n      "script_mtime_at_approval": null\n    }\n  ],\n' +
        '  "zeta": {\n    "a": [\n      true,\n      "\\u00fc"\n    ],\n    "b": 1\n  }\n}',
    );
  });

  it.each([['not json'], ['[1, 2]'], ['{"approvals": "x"}'], ['null']])(
    'reads %s as no approvals and replaces it on write',
    async (text) => {
      const home = freshHome();
      const path = join(home, 'shell-hooks-allowlist.json');
      writeFileSync(path, text);
      const store = createFileAllowlistStore(home, createMemoryLogger());
      expect(await store.list()).toEqual([]);
      expect(
        await store.record({
          event: 'pre_llm_call',
          command: '/x',
          approved_at: '2026-01-01T00:00:00Z',
          script_mtime_at_approval: null,
        }),
      ).toBe(true);
      expect(JSON.parse(readFileSync(path, 'utf8')).approvals).toHaveLength(1);
    },
  );

  it('creates the parent directory', async () => {
    const home = join(freshHome(), 'a', 'b');
    const store = createFileAllowlistStore(home, createMemoryLogger());
    expect(
      await store.record({
        event: 'pre_llm_call',
        command: '/x',
        approved_at: '2026-01-01T00:00:00Z',
        script_mtime_at_approval: null,
      }),
    ).toBe(true);
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(true);
  });

  it('a failure to persist is a "Failed to persist" warning, never a throw', async () => {
    const blocker = join(freshHome(), 'file');
    writeFileSync(blocker, '');
    const logger = createMemoryLogger();
    const store = createFileAllowlistStore(join(blocker, 'home'), logger);
    expect(
      await store.record({
        event: 'pre_llm_call',
        command: '/x',
        approved_at: '2026-01-01T00:00:00Z',
        script_mtime_at_approval: null,
      }),
    ).toBe(false);
    const warning = logger.lines.find((l) => l.level === 'warn')!.message;
    expect(warning).toContain('Failed to persist');
    expect(warning).toContain(join(blocker, 'home', 'shell-hooks-allowlist.json'));
    expect(warning).toContain('re-prompt');
    expect(await store.revoke('/x')).toBe(0);
  });

  it('waits for an exclusive flock held by another process on the .lock sibling', async () => {
    const home = freshHome();
    const lock = join(home, 'shell-hooks-allowlist.json.lock');
    const marker = join(home, 'released');
    writeFileSync(lock, '');
    // Another process (flock(1), as a Hermes process would with fcntl.flock) holds the lock.
    const holder = spawn('flock', ['--exclusive', lock, '-c', `echo locked; sleep 0.7; echo > '${marker}'`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const closed = new Promise((r) => holder.on('close', r));
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const store = createFileAllowlistStore(home, createMemoryLogger());
    await store.record({
      event: 'pre_llm_call',
      command: '/x',
      approved_at: '2026-01-01T00:00:00Z',
      script_mtime_at_approval: null,
    });
    expect(existsSync(marker)).toBe(true); // the write happened only after the other holder let go
    await closed;
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { CallbackRegistry } from '../../src/hooks/callback-registry.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { createFileAllowlistStore } from '../../src/hooks/shell/consent/file-allowlist-store.ts';
import { registerShellHooks } from '../../src/hooks/shell/register-shell-hooks.ts';

const root = mkdtempSync(join(tmpdir(), 'hookgate-reg-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(hooks: (dir: string) => Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const home = mkdtempSync(join(root, 'home-'));
  const logger = createMemoryLogger();
  return {
    home,
    logger,
    registry: new CallbackRegistry(),
    allowlist: createFileAllowlistStore(home, logger),
    config: { hooks: hooks(home), ...extra },
    seen: new Set<string>(),
  };
}

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const notTTY = () => ({ input: Object.assign(new PassThrough(), { isTTY: false }), output: new PassThrough() });

describe('registerShellHooks (§3.4, §3.8)', () => {
  it('an unapproved hook never executes: no TTY, no accept → skipped with the remedies, nothing written', async () => {
    const s = setup((dir) => ({ on_session_start: [{ command: script(dir, 'marker.sh', `touch '${dir}/ran'`) }] }));
    const registered = await registerShellHooks({ ...s, acceptHooks: false, env: {}, io: notTTY() });
    expect(registered).toEqual([]);
    expect(s.registry.has('on_session_start')).toBe(false);
    for (const cb of s.registry.callbacks('on_session_start')) await cb.fn({});
    expect(existsSync(join(s.home, 'ran'))).toBe(false);
    expect(existsSync(join(s.home, 'shell-hooks-allowlist.json'))).toBe(false);
    const warning = s.logger.lines.find((l) => l.level === 'warn')!.message;
    for (const fragment of [
      'on_session_start',
      'marker.sh',
      '--accept-hooks',
      'HOOKGATE_ACCEPT_HOOKS=1',
      'HERMES_ACCEPT_HOOKS=1',
      'hooks_auto_accept: true',
      'TTY prompt',
    ]) {
      expect(warning).toContain(fragment);
    }
  });

  it('--accept-hooks records the approval (mtime, sha256) and registers a named shell callback', async () => {
    let path = '';
    const s = setup((dir) => {
      path = script(dir, 'observe.sh', `cat > '${dir}/stdin.json'`);
      return { on_session_start: [{ command: path, timeout: 9 }], pre_tool_call: [{ command: path, matcher: 'terminal' }] };
    });
    const registered = await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() });
    expect(registered.map((e) => e.event)).toEqual(['on_session_start', 'pre_tool_call']);
    const [observer] = s.registry.callbacks('on_session_start');
    expect(observer).toMatchObject({ name: `shell_hook[on_session_start:${path}]`, source: 'shell' });
    expect(s.registry.callbacks('pre_tool_call')[0]).toMatchObject({ source: 'shell' });
    const approvals = (await s.allowlist.list()).map((e) => [e.event, e.command, e.script_sha256_at_approval]);
    const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(approvals).toEqual([
      ['on_session_start', path, sha],
      ['pre_tool_call', path, sha],
    ]);
    expect((await s.allowlist.find('pre_tool_call', path))!.script_mtime_at_approval).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/,
    );
    expect(s.logger.lines.some((l) => l.level === 'info' && l.message.includes('auto-approved'))).toBe(true);
    expect(
      s.logger.lines.some(
        (l) => l.level === 'info' && l.message.includes('registered shell hook') && l.message.includes('timeout=9s'),
      ),
    ).toBe(true);
    await observer!.fn({ session_id: 's-9', telemetry_schema_version: 'hermes.observer.v1' });
    expect(readFileSync(join(s.home, 'stdin.json'), 'utf8')).toBe(
      `{"hook_event_name": "on_session_start", "tool_name": null, "tool_input": null, "session_id": "s-9", "cwd": "${process.cwd()}", "extra": {"telemetry_schema_version": "hermes.observer.v1"}}`,
    );
  });

  it.each([
    [{ HOOKGATE_ACCEPT_HOOKS: '1' }, {}, true],
    [{ HERMES_ACCEPT_HOOKS: ' Yes ' }, {}, true],
    [{ HOOKGATE_ACCEPT_HOOKS: 'no' }, {}, false],
    [{}, { hooks_auto_accept: true }, true],
    [{}, { hooks_auto_accept: '  TRUE  ' }, true],
    [{}, { hooks_auto_accept: 'on' }, true],
    [{}, { hooks_auto_accept: 1 }, false],
    [{}, { hooks_auto_accept: 'false' }, false],
    [{}, { hooks_auto_accept: null }, false],
  ])('env %j / config %j → accept %s', async (env, extra, accepted) => {
    const s = setup((dir) => ({ post_llm_call: [{ command: script(dir, 'x.sh', 'true') }] }), extra);
    const registered = await registerShellHooks({ ...s, acceptHooks: false, env, io: notTTY() });
    expect(registered.length).toBe(accepted ? 1 : 0);
    expect((await s.allowlist.list()).length).toBe(accepted ? 1 : 0);
  });

  it('the CLI flag wins over hooks_auto_accept: "false"', async () => {
    const s = setup((dir) => ({ post_llm_call: [{ command: script(dir, 'x.sh', 'true') }] }), { hooks_auto_accept: 'false' });
    expect(await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() })).toHaveLength(1);
  });

  it('is idempotent per engine; same command with two matchers registers twice under one approval', async () => {
    const s = setup((dir) => {
      const p = script(dir, 'g.sh', 'true');
      return {
        pre_tool_call: [
          { command: p, matcher: 'terminal' },
          { command: p, matcher: 'web' },
          { command: ` ${p} `, matcher: 'terminal', timeout: 3 },
        ],
      };
    });
    expect(await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() })).toHaveLength(2);
    expect(await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() })).toEqual([]);
    expect(s.registry.callbacks('pre_tool_call')).toHaveLength(2);
    expect(await s.allowlist.list()).toHaveLength(1);
    // a fresh engine (fresh set) registers again, without prompting: already allowlisted
    const again = new CallbackRegistry();
    expect(
      await registerShellHooks({ ...s, registry: again, seen: new Set(), acceptHooks: false, env: {}, io: notTTY() }),
    ).toHaveLength(2);
  });

  it('enabled: false is never registered, never recorded, never run (§5.4)', async () => {
    const s = setup((dir) => ({ on_session_end: [{ command: script(dir, 'off.sh', `touch '${dir}/ran'`), enabled: false }] }));
    expect(await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() })).toEqual([]);
    expect(s.seen.size).toBe(0);
    expect(await s.allowlist.list()).toEqual([]);
  });

  it('the matcher gate answers "no value" without spawning', async () => {
    const s = setup((dir) => ({
      post_tool_call: [{ command: script(dir, 'm.sh', `touch '${dir}/ran'`), matcher: 'write_file|patch' }],
    }));
    await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() });
    const [cb] = s.registry.callbacks('post_tool_call');
    expect(await cb!.fn({ tool_name: 'terminal', args: {} })).toBeUndefined();
    expect(await cb!.fn({ args: {} })).toBeUndefined();
    expect(existsSync(join(s.home, 'ran'))).toBe(false);
    await cb!.fn({ tool_name: 'patch', args: {} });
    expect(existsSync(join(s.home, 'ran'))).toBe(true);
  });

  it('Claude-Code-style scripts block unchanged: exit 2 + stderr, and permissionDecision deny', async () => {
    const s = setup((dir) => ({
      pre_tool_call: [
        {
          command: script(dir, 'cc-exit2.sh', 'cat >/dev/null\necho "Dangerous command blocked" >&2\nexit 2'),
          matcher: 'terminal',
        },
        {
          command: script(
            dir,
            'cc-deny.sh',
            `cat >/dev/null\necho '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "writes outside the repo"}}'`,
          ),
          matcher: 'write_file',
        },
        { command: script(dir, 'cc-allow.sh', `cat >/dev/null\necho '{"hookSpecificOutput": {"permissionDecision": "allow"}}'`) },
      ],
    }));
    await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() });
    const run = async (tool: string) => {
      const results = [];
      for (const cb of s.registry.callbacks('pre_tool_call'))
        results.push(await cb.fn({ tool_name: tool, args: { command: 'rm -rf /' } }));
      return results.filter((r) => r !== undefined);
    };
    expect(await run('terminal')).toEqual([{ action: 'block', message: 'Dangerous command blocked' }]);
    expect(await run('write_file')).toEqual([{ action: 'block', message: 'writes outside the repo' }]);
    expect(await run('read_file')).toEqual([]);
  });

  it('fail_closed blocks when the script is missing; otherwise a missing script fails open', async () => {
    const s = setup((dir) => ({
      pre_tool_call: [{ command: join(dir, 'gone.sh'), fail_closed: true }, { command: join(dir, 'gone2.sh') }],
    }));
    await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() });
    const [closed, open] = s.registry.callbacks('pre_tool_call');
    expect(await closed!.fn({ tool_name: 'terminal', args: {} })).toEqual({
      action: 'block',
      message: `hook ${join(s.home, 'gone.sh')} failed closed: command not found`,
    });
    expect(await open!.fn({ tool_name: 'terminal', args: {} })).toBeUndefined();
  });

  it('§5.5: a script changed since approval does not run; warned at registration and on each skipped call; fail_closed blocks', async () => {
    let observe = '';
    let guard = '';
    const s = setup((dir) => {
      observe = script(dir, 'observe.sh', `touch '${dir}/observe-ran'`);
      guard = script(dir, 'guard.sh', `cat >/dev/null; touch '${dir}/guard-ran'`);
      return {
        on_session_start: [{ command: observe }],
        pre_tool_call: [{ command: guard, matcher: 'terminal', fail_closed: true }],
      };
    });
    for (const [event, command] of [
      ['on_session_start', observe],
      ['pre_tool_call', guard],
    ] as const) {
      await s.allowlist.record({
        event,
        command,
        approved_at: '2026-01-01T00:00:00Z',
        script_mtime_at_approval: null,
        script_sha256_at_approval: createHash('sha256').update(readFileSync(command)).digest('hex'),
      });
    }
    const oldSha = createHash('sha256').update(readFileSync(observe)).digest('hex');
    script(s.home, 'observe.sh', `touch '${s.home}/observe-ran'; echo changed`);
    script(s.home, 'guard.sh', `cat >/dev/null; touch '${s.home}/guard-ran'; echo changed`);
    const newSha = createHash('sha256').update(readFileSync(observe)).digest('hex');
    await registerShellHooks({ ...s, acceptHooks: true, env: {}, io: notTTY() });
    const warnings = () =>
      s.logger.lines.filter((l) => l.level === 'warn' && l.message.includes('changed since approval')).map((l) => l.message);
    expect(warnings()).toHaveLength(2);
    expect(warnings()[0]).toContain(
      `event=on_session_start command=${observe} sha256 ${oldSha.slice(0, 12)}… → ${newSha.slice(0, 12)}…`,
    );
    // --accept-hooks does not silently re-approve changed content.
    expect((await s.allowlist.find('on_session_start', observe))!.script_sha256_at_approval).toBe(oldSha);

    const [observer] = s.registry.callbacks('on_session_start');
    expect(await observer!.fn({ session_id: 's' })).toBeUndefined();
    expect(existsSync(join(s.home, 'observe-ran'))).toBe(false);
    const [closed] = s.registry.callbacks('pre_tool_call');
    expect(await closed!.fn({ tool_name: 'terminal', args: {} })).toEqual({
      action: 'block',
      message: `hook ${guard} failed closed: script changed since approval`,
    });
    // Not matched: not a skipped call (no warning, nothing run).
    expect(await closed!.fn({ tool_name: 'read_file', args: {} })).toBeUndefined();
    expect(existsSync(join(s.home, 'guard-ran'))).toBe(false);
    expect(warnings()).toHaveLength(4);

    // Re-approved, it runs again at once.
    await s.allowlist.record({
      event: 'on_session_start',
      command: observe,
      approved_at: '2026-01-02T00:00:00Z',
      script_mtime_at_approval: null,
      script_sha256_at_approval: newSha,
    });
    await observer!.fn({ session_id: 's' });
    expect(existsSync(join(s.home, 'observe-ran'))).toBe(true);
  });

  it('hooks_on_drift: warn runs a changed script with a warning (the reference behaviour)', async () => {
    let path = '';
    const s = setup(
      (dir) => {
        path = script(dir, 'observe.sh', `touch '${dir}/ran'`);
        return { on_session_start: [{ command: path }] };
      },
      { hooks_on_drift: 'warn' },
    );
    await s.allowlist.record({
      event: 'on_session_start',
      command: path,
      approved_at: '2026-01-01T00:00:00Z',
      script_mtime_at_approval: null,
      script_sha256_at_approval: 'f'.repeat(64),
    });
    await registerShellHooks({ ...s, acceptHooks: false, env: {}, io: notTTY() });
    await s.registry.callbacks('on_session_start')[0]!.fn({ session_id: 's' });
    expect(existsSync(join(s.home, 'ran'))).toBe(true);
    expect(s.logger.lines.filter((l) => l.level === 'warn' && l.message.includes('hooks_on_drift: warn'))).toHaveLength(2);
  });

  it('a non-mapping config registers nothing', async () => {
    const s = setup(() => ({}));
    expect(
      await registerShellHooks({ ...s, config: [] as unknown as Record<string, unknown>, acceptHooks: true, env: {} }),
    ).toEqual([]);
  });
});

const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0;
describe.runIf(hasScript)('the TTY consent prompt (§3.8), through a real pty', () => {
  const fixture = join(import.meta.dirname, 'fixtures', 'register-on-tty.mts');
  function onTty(home: string, answer: string) {
    const cmd = `${process.execPath} --import tsx ${JSON.stringify(fixture)} ${JSON.stringify(home)}`;
    const result = spawnSync('script', ['-qfec', cmd, '/dev/null'], { input: answer, encoding: 'utf8', timeout: 20_000 });
    return result.stdout.replace(/\r/g, '');
  }
  function home() {
    const dir = mkdtempSync(join(root, 'tty-'));
    const hook = script(dir, 'tty.sh', `touch '${dir}/ran'`);
    writeFileSync(join(dir, 'config.yaml'), `hooks:\n  on_session_start:\n    - command: ${hook}\n`);
    return { dir, hook };
  }

  it('prints the prompt; "y" records and runs the hook', () => {
    const { dir, hook } = home();
    const out = onTty(dir, 'y\n');
    expect(out).toContain('⚠');
    expect(out).toContain('about to register a shell hook that will run a command on your behalf');
    expect(out).toContain('    Event:   on_session_start\n');
    expect(out).toContain(`    Command: ${hook}\n`);
    expect(out).toContain('full user credentials');
    expect(out).toContain('Allow this hook to run? [y/N]: ');
    expect(out).toContain('REGISTERED 1');
    expect(existsSync(join(dir, 'ran'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'shell-hooks-allowlist.json'), 'utf8')).approvals).toHaveLength(1);
  });

  /** Waits for the prompt on the pty, then types `keys` (so raw mode is already on). */
  function typeAtPrompt(home: string, keys: string): Promise<string> {
    const cmd = `${process.execPath} --import tsx ${JSON.stringify(fixture)} ${JSON.stringify(home)}`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    let typed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!typed && out.includes('[y/N]: ')) {
        typed = true;
        child.stdin.write(keys);
      }
    });
    return new Promise((resolve) => child.on('close', () => resolve(out.replace(/\r/g, ''))));
  }

  it.each([
    ['end of input (^D)', '\x04'],
    ['an interrupt (^C)', '\x03'],
  ])('%s at the prompt prints a newline and is not granted', async (_what, keys) => {
    const { dir } = home();
    const out = await typeAtPrompt(dir, keys);
    expect(out).toMatch(/\[y\/N\]: [^\n]*\n/);
    expect(out).toContain('REGISTERED 0');
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(existsSync(join(dir, 'shell-hooks-allowlist.json'))).toBe(false);
  });

  it.each([['n\n'], ['\n'], ['maybe\n']])('answer %j: not granted, nothing written, never run', (answer) => {
    const { dir } = home();
    const out = onTty(dir, answer);
    expect(out).toContain('Allow this hook to run? [y/N]: ');
    expect(out).toContain('REGISTERED 0');
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(existsSync(join(dir, 'shell-hooks-allowlist.json'))).toBe(false);
  });
});

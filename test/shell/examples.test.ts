import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CallbackRegistry } from '../../src/hooks/callback-registry.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { createFileAllowlistStore } from '../../src/hooks/shell/consent/file-allowlist-store.ts';
import { registerShellHooks } from '../../src/hooks/shell/register-shell-hooks.ts';

/*
 * The seed's four shell-hook examples, as shipped in examples/ (config.yaml `hooks:` and
 * examples/agent-hooks/*.sh), registered through the real path and fired with real payloads.
 * The example commands are relative to the repository root, which is the cwd here.
 */
const repo = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'hookgate-examples-'));
const config = parse(readFileSync(join(repo, 'examples/config.yaml'), 'utf8')) as Record<string, unknown>;
const registry = new CallbackRegistry();
const logger = createMemoryLogger();
const oldCwd = process.cwd();
const oldHome = process.env.HOOKGATE_HOME;

beforeAll(async () => {
  process.chdir(repo);
  process.env.HOOKGATE_HOME = scratch; // where log-subagent.sh writes its log
  const registered = await registerShellHooks({
    config,
    registry,
    allowlist: createFileAllowlistStore(scratch, logger),
    acceptHooks: true,
    seen: new Set(),
    logger,
    env: {},
  });
  expect(registered.map((e) => `${e.event} ${e.command}`)).toEqual([
    'pre_tool_call examples/agent-hooks/block-rm-rf.sh',
    'post_tool_call examples/agent-hooks/auto-format.sh',
    'pre_llm_call examples/agent-hooks/inject-git-status.sh',
    'subagent_stop examples/agent-hooks/log-subagent.sh',
  ]);
});
afterAll(() => {
  process.chdir(oldCwd);
  if (oldHome === undefined) delete process.env.HOOKGATE_HOME;
  else process.env.HOOKGATE_HOME = oldHome;
  rmSync(scratch, { recursive: true, force: true });
});

async function fire(hook: string, kwargs: Record<string, unknown>): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const cb of registry.callbacks(hook)) {
    const r = await cb.fn({ ...kwargs, telemetry_schema_version: 'hermes.observer.v1' });
    if (r !== undefined && r !== null) results.push(r);
  }
  return results;
}

describe('examples/agent-hooks (the seed examples)', () => {
  it('block-rm-rf blocks `rm -rf /…` on terminal and lets other commands and tools through', async () => {
    const pre = (tool: string, command: string) =>
      fire('pre_tool_call', { tool_name: tool, args: { command }, task_id: '', session_id: 's' });
    expect(await pre('terminal', 'rm -rf /')).toEqual([{ action: 'block', message: 'blocked: rm -rf / is not permitted' }]);
    expect(await pre('terminal', 'cd /tmp && rm -fr /var/lib')).toEqual([
      { action: 'block', message: 'blocked: rm -rf / is not permitted' },
    ]);
    expect(await pre('terminal', 'ls -la /')).toEqual([]);
    expect(await pre('terminal', 'rm -rf build')).toEqual([]);
    expect(await pre('read_file', 'rm -rf /')).toEqual([]); // matcher: terminal only
  });

  it('auto-format runs the formatter on a written .py file only', async () => {
    const formatter = join(scratch, 'fake-black');
    const marker = join(scratch, 'formatted.txt');
    writeFileSync(formatter, `#!/bin/sh\necho "$1" >> '${marker}'\n`, { mode: 0o755 });
    process.env.HOOKGATE_FORMATTER = formatter;
    try {
      const post = (tool: string, path: string) =>
        fire('post_tool_call', { tool_name: tool, args: { path, content: 'x=1' }, result: '{}', session_id: 's' });
      expect(await post('write_file', '/w/app.py')).toEqual([]);
      expect(await post('write_file', '/w/notes.md')).toEqual([]);
      expect(await post('terminal', '/w/other.py')).toEqual([]);
      expect(await post('patch', '/w/lib.py')).toEqual([]);
      expect(readFileSync(marker, 'utf8')).toBe('/w/app.py\n/w/lib.py\n');
    } finally {
      delete process.env.HOOKGATE_FORMATTER;
    }
  });

  it('inject-git-status gives pre_llm_call context from `git status` in the cwd', async () => {
    const work = mkdtempSync(join(scratch, 'repo-'));
    execFileSync('git', ['init', '-q', work]);
    const kwargs = { session_id: 's', user_message: 'hi', conversation_history: [], is_first_turn: true };
    // The script path is repo-relative, so run from the repo but point git at the temp work tree.
    process.env.GIT_DIR = join(work, '.git');
    process.env.GIT_WORK_TREE = work;
    try {
      expect(await fire('pre_llm_call', kwargs)).toEqual([]); // clean tree: nothing to say
      writeFileSync(join(work, 'new "file".txt'), 'x');
      const [result] = await fire('pre_llm_call', kwargs);
      expect(result).toEqual({ context: 'Uncommitted changes in cwd:\n?? "new \\"file\\".txt"' });
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_WORK_TREE;
    }
  });

  it('log-subagent appends one line per finished child, with the parent session', async () => {
    const kwargs = {
      parent_session_id: 'parent-1',
      child_role: 'leaf',
      child_summary: 'done ✓',
      child_status: 'completed',
      duration_ms: 12,
    };
    expect(await fire('subagent_stop', kwargs)).toEqual([]);
    await fire('subagent_stop', { ...kwargs, child_status: 'failed' });
    const lines = readFileSync(join(scratch, 'logs', 'orchestration.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].event).toMatchObject({
      hook_event_name: 'subagent_stop',
      session_id: 'parent-1',
      extra: { child_summary: 'done ✓', child_status: 'completed' },
    });
    expect(lines[1].event.extra.child_status).toBe('failed');
    expect(typeof lines[0].ts).toBe('number');
  });

  it('no example printed a warning', () => {
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });
});

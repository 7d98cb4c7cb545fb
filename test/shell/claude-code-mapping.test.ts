import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../src/cli/main.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { renderClaudePayload } from '../../src/hooks/shell/claude-payload.ts';
import { ClaudeSettingsError, parseClaudeSettings } from '../../src/hooks/shell/config/claude-settings.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import { planClaudeImport } from '../../src/hooks/shell/config/plan-claude-import.ts';
import { fireShellHook, shellHookCallback } from '../../src/hooks/shell/shell-hook-callback.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'hookgate-claude-map-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = (hooks: unknown, existing: unknown = {}) =>
  planClaudeImport(parseClaudeSettings(JSON.stringify({ hooks })), '/proj', existing);
const one = (claudeEvent: string, matcher: string | undefined, command: string, extra: Record<string, unknown> = {}) =>
  plan({
    [claudeEvent]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...extra }] }],
  })[0]!;

describe('planClaudeImport: events, matchers, commands, timeouts', () => {
  it.each([
    ['PreToolUse', 'pre_tool_call'],
    ['PostToolUse', 'post_tool_call'],
    ['UserPromptSubmit', 'pre_llm_call'],
    ['Stop', 'on_session_end'],
    ['SubagentStop', 'subagent_stop'],
    ['SessionStart', 'on_session_start'],
    ['SessionEnd', 'on_session_finalize'],
  ])('%s → %s, payload: claude', (claude, hookgate) => {
    expect(one(claude, undefined, '/h/x.sh')).toMatchObject({
      status: 'imported',
      event: hookgate,
      entry: { command: '/h/x.sh', payload: 'claude' },
    });
  });

  it('the events that share a hookgate event are imported with claude_event', () => {
    expect(one('Notification', undefined, '/h/x.sh').entry).toEqual({
      command: '/h/x.sh',
      payload: 'claude',
      claude_event: 'Notification',
    });
    expect(one('PermissionRequest', 'Bash', '/h/x.sh')).toMatchObject({
      event: 'pre_approval_request',
      entry: { claude_event: 'PermissionRequest' },
    });
    expect(one('PostToolUseFailure', 'Bash', '/h/x.sh')).toMatchObject({
      event: 'post_tool_call',
      entry: { matcher: 'terminal', claude_event: 'PostToolUseFailure' },
    });
    expect(one('PostToolUse', 'Bash', '/h/x.sh').entry).toMatchObject({ claude_event: 'PostToolUse' });
  });

  it('a SessionStart hook is imported with the note that its context does not reach the model', () => {
    expect(one('SessionStart', undefined, '/h/x.sh')).toMatchObject({
      status: 'imported',
      event: 'on_session_start',
      note: expect.stringContaining('context the hook prints (plain or additionalContext) does not reach the model'),
    });
    expect(one('UserPromptSubmit', undefined, '/h/x.sh').note).toBe('');
  });

  it('other events are reported with the reason', () => {
    expect(one('PreCompact', undefined, '/h/x.sh').note).toBe('hookgate does not compact the context');
    expect(one('Teleport', undefined, '/h/x.sh').note).toBe('no hookgate event corresponds to Teleport');
  });

  it.each([
    ['Bash', 'terminal'],
    ['Read', 'read_file'],
    ['Write', 'write_file'],
    ['Edit|MultiEdit', 'patch'],
    ['Write|Edit|MultiEdit', 'write_file|patch'],
    ['Bash|Grep', 'terminal'],
    ['Task', 'delegate_task'],
    ['(Write|Edit)', '(write_file|patch)'],
  ])('matcher %s → %s', (claude, hookgate) => {
    expect(one('PreToolUse', claude, '/h/x.sh').entry?.matcher).toBe(hookgate);
  });

  it('"*", "" and no matcher match every tool; a matcher no hookgate tool satisfies is not imported', () => {
    for (const m of ['*', '', undefined]) expect(one('PostToolUse', m, '/h/x.sh').entry).not.toHaveProperty('matcher');
    expect(one('PreToolUse', 'Glob|Grep', '/h/x.sh')).toMatchObject({
      status: 'not-imported',
      note: expect.stringContaining('names no tool hookgate has'),
    });
    expect(one('PreToolUse', 'mcp__.*', '/h/x.sh').status).toBe('not-imported');
    expect(one('SessionStart', 'startup', '/h/x.sh')).toMatchObject({
      status: 'imported',
      note: expect.stringContaining("matcher 'startup' dropped"),
    });
  });

  it('a matcher on SessionStart, Notification or PermissionRequest is read against the one value hookgate sends: kept when it matches, not imported when it never could', () => {
    for (const [event, matcher] of [
      ['SessionStart', 'startup|resume'],
      ['Notification', 'permission_prompt'],
      ['PermissionRequest', 'Bash'],
    ]) {
      expect(one(event!, matcher, '/h/x.sh'), event).toMatchObject({
        status: 'imported',
        note: expect.stringContaining('dropped'),
      });
      expect(one(event!, matcher, '/h/x.sh').entry, event).not.toHaveProperty('matcher');
    }
    for (const [event, matcher, field] of [
      ['SessionStart', 'compact', "source 'startup'"],
      ['Notification', 'idle_prompt', "notification_type 'permission_prompt'"],
      ['PermissionRequest', 'Write|Edit', "tool_name 'Bash'"],
    ]) {
      expect(one(event!, matcher, '/h/x.sh'), event).toMatchObject({
        status: 'not-imported',
        note: `matcher '${matcher}' never matches here: every ${event} hookgate sends has ${field}`,
      });
    }
    // Matchers on the other events without tools are still dropped with a note (they have no such field).
    expect(one('SessionEnd', 'clear', '/h/x.sh')).toMatchObject({ status: 'imported', note: expect.stringContaining('dropped') });
  });

  it('$CLAUDE_PROJECT_DIR becomes the project directory; shell syntax runs through sh -c; timeouts kept within 1..300', () => {
    expect(one('PreToolUse', 'Bash', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/v.py').entry?.command).toBe('/proj/.claude/hooks/v.py');
    expect(one('PreToolUse', 'Bash', 'python3 "${CLAUDE_PROJECT_DIR}/a b.py"').entry?.command).toBe("python3 '/proj/a b.py'");
    expect(one('PostToolUse', 'Write', "jq -r '.tool_input.file_path' | xargs prettier --write").entry?.command).toBe(
      `sh -c 'jq -r '\\''.tool_input.file_path'\\'' | xargs prettier --write'`,
    );
    expect(one('Stop', undefined, 'echo $HOME').entry?.command).toBe(`sh -c 'echo $HOME'`);
    expect(one('Stop', undefined, '/h/x.sh', { timeout: 10 }).entry?.timeout).toBe(10);
    expect(one('Stop', undefined, '/h/x.sh', { timeout: 900 })).toMatchObject({
      entry: { timeout: 300 },
      note: 'timeout 900s clamped to 300s',
    });
  });

  it('http and prompt handlers become http and prompt hooks, agent ones are reported; entries already in config.yaml are left alone', () => {
    const rows = plan(
      {
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'done?' },
              { type: 'command', command: '/h/x.sh' },
              { type: 'agent', prompt: 'check the tests' },
            ],
          },
        ],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'https://policy.example.com/hook', headers: { Authorization: 'Bearer $TOKEN' }, timeout: 5 },
            ],
          },
        ],
      },
      { on_session_end: [{ command: '/h/x.sh', payload: 'claude' }] },
    );
    expect(rows.map((r) => r.status)).toEqual(['imported', 'present', 'not-imported', 'imported']);
    expect(rows[0]!.entry).toEqual({ type: 'prompt', prompt: 'done?', payload: 'claude' });
    expect(rows[2]!.note).toContain('type "agent"');
    expect(rows[3]!.entry).toEqual({
      type: 'http',
      matcher: 'terminal',
      url: 'https://policy.example.com/hook',
      headers: { Authorization: 'Bearer $TOKEN' },
      timeout: 5,
      payload: 'claude',
    });
    expect(rows[3]!.note).toContain('does not expand $VARIABLES');
    const twice = plan({
      Stop: [{ hooks: [{ type: 'command', command: '/h/y.sh' }] }, { hooks: [{ type: 'command', command: '/h/y.sh' }] }],
    });
    expect(twice.map((r) => [r.status, r.note])).toEqual([
      ['imported', ''],
      ['not-imported', 'the same hook appears earlier in the settings file; imported once'],
    ]);
  });

  it('a file that is not Claude Code settings is refused with the problem named', () => {
    expect(() => parseClaudeSettings('{"hooks": {"PreToolUse": [{"matcher": 3, "hooks": []}]}}')).toThrow(
      /hooks\.PreToolUse\[0\]\.matcher: must be a string/,
    );
    expect(() => parseClaudeSettings('{"hooks": {"Stop": {"command": "x"}}}')).toThrow(ClaudeSettingsError);
    expect(() => parseClaudeSettings('not json')).toThrow(/not valid JSON/);
  });
});

describe('payload: claude', () => {
  it('parse-config keeps payload: claude; other values warn and keep the Hermes payload', () => {
    const logger = createMemoryLogger();
    const entries = parseShellHooks(
      {
        hooks: { pre_tool_call: [{ command: '/a', payload: 'claude' }, { command: '/b', payload: 'gemini' }, { command: '/c' }] },
      },
      logger,
    );
    expect(entries.map((e) => e.payload)).toEqual(['claude', undefined, undefined]);
    expect(logger.lines.map((l) => l.message)).toEqual([
      `hooks.pre_tool_call[1].payload must be 'claude' or 'hermes' (got "gemini"); using the Hermes payload`,
    ]);
  });

  it('renders Claude Code’s input shapes', () => {
    const kwargs = {
      tool_name: 'patch',
      args: { path: 'src/a.ts', old_string: 'x', new_string: 'y' },
      task_id: 't',
      session_id: 's-1',
      tool_call_id: 'c-1',
    };
    expect(JSON.parse(renderClaudePayload('pre_tool_call', kwargs, '/w'))).toEqual({
      session_id: 's-1',
      cwd: '/w',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' },
      tool_use_id: 'c-1',
    });
    expect(
      JSON.parse(renderClaudePayload('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls', timeout: 5 } }, '/w')),
    ).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'ls', timeout: 5000 },
    });
    expect(JSON.parse(renderClaudePayload('pre_llm_call', { session_id: 's', user_message: 'hi' }, '/w'))).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
    });
    expect(
      JSON.parse(renderClaudePayload('on_session_finalize', { session_id: 's', reason: 'new_session' }, '/w')),
    ).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'new_session' });
    expect(JSON.parse(renderClaudePayload('subagent_stop', { parent_session_id: 'p' }, '/w'))).toMatchObject({
      session_id: 'p',
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
    });
    const transcript = join(root, 'transcript.jsonl');
    writeFileSync(transcript, '');
    expect(
      JSON.parse(renderClaudePayload('on_session_end', { session_id: 's', transcript_path: transcript }, '/w')).transcript_path,
    ).toBe(transcript);
    expect(
      JSON.parse(renderClaudePayload('on_session_end', { session_id: 's', transcript_path: join(root, 'none') }, '/w')),
    ).not.toHaveProperty('transcript_path');
  });

  it('a payload: claude hook gets CLAUDE_PROJECT_DIR (the payload cwd) and its stdin; a Hermes one gets neither', async () => {
    const script = join(root, 'env.sh');
    writeFileSync(
      script,
      `#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"hook_event_name": "UserPromptSubmit"'*'"prompt": "hi"'*) kind=claude ;;
  *'"hook_event_name": "pre_llm_call"'*) kind=hermes ;;
  *) kind=other ;;
esac
printf '{"context": "%s %s"}' "$kind" "$CLAUDE_PROJECT_DIR"
`,
      { mode: 0o755 },
    );
    const [claude, hermes] = parseShellHooks(
      { hooks: { pre_llm_call: [{ command: script, payload: 'claude' }, { command: `${script} ` }] } },
      createMemoryLogger(),
    );
    const logger = createMemoryLogger();
    const saved = process.env.CLAUDE_PROJECT_DIR;
    delete process.env.CLAUDE_PROJECT_DIR;
    try {
      expect((await fireShellHook(claude!, { session_id: 's', user_message: 'hi' }, logger)).result).toEqual({
        context: `claude ${process.cwd()}`,
      });
      expect((await fireShellHook(hermes!, { session_id: 's', user_message: 'hi' }, logger)).result).toEqual({
        context: 'hermes ',
      });
    } finally {
      if (saved !== undefined) process.env.CLAUDE_PROJECT_DIR = saved;
    }
  });
});

describe('hookgate hooks doctor / test with payload: claude', () => {
  it('the smoke test and hooks test send Claude Code’s stdin to a payload: claude entry', async () => {
    const home = mkdtempSync(join(root, 'doctor-'));
    const script = join(home, 'record.sh');
    writeFileSync(script, `#!/bin/sh\ncat >> ${home}/stdin.log\nprintf '\\n' >> ${home}/stdin.log\n`, { mode: 0o755 });
    writeFileSync(
      join(home, 'config.yaml'),
      `hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ${script}\n      payload: claude\n`,
    );
    const out = process.stdout.write;
    const savedHome = process.env.HOOKGATE_HOME;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      await runCli(['hooks', 'approve', 'pre_tool_call', script, '--yes', '--home', home]); // doctor runs approved scripts only
      await runCli(['hooks', 'doctor', '--home', home]);
      await runCli(['hooks', 'test', 'pre_tool_call', '--for-tool', 'terminal', '--home', home]);
    } finally {
      process.stdout.write = out;
      process.exitCode = undefined;
      // `hookgate hooks` exports its home to the hooks it runs (HOOKGATE_HOME), as dev does.
      if (savedHome === undefined) delete process.env.HOOKGATE_HOME;
      else process.env.HOOKGATE_HOME = savedHome;
    }
    const lines = readFileSync(join(home, 'stdin.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', permission_mode: 'default' });
  });
});

describe('hookgate hooks test reads a payload: claude hook’s answer as the live callback does', () => {
  // A UserPromptSubmit guard and a PreToolUse rewriter, as published for Claude Code.
  const PROMPT_GUARD = `#!/bin/sh
prompt=$(jq -r '.prompt')
case "$prompt" in *password*) echo "No passwords in prompts." >&2; exit 2 ;; esac
exit 0
`;
  const DRY_RUN = `#!/bin/sh
jq -c '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: {command: (.tool_input.command + " --dry-run"), timeout: 30000}}}'
`;

  it('a UserPromptSubmit block is shown and meets --expect block', async () => {
    const home = mkdtempSync(join(root, 'test-prompt-'));
    const script = join(home, 'guard.sh');
    writeFileSync(script, PROMPT_GUARD, { mode: 0o755 });
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_llm_call:\n    - command: ${script}\n      payload: claude\n`);
    const payload = join(home, 'prompt.json');
    writeFileSync(payload, JSON.stringify({ user_message: 'my password is hunter2' }));
    const run = await runCliInProcess([
      'hooks',
      'test',
      'pre_llm_call',
      '--payload-file',
      payload,
      '--expect',
      'block',
      '--home',
      home,
    ]);
    expect(run.stdout).toContain('parsed (Hermes wire shape): {"action": "block_turn", "message": "No passwords in prompts."}');
    expect(run.code).toBe(0);
  });

  it('an updatedInput is shown in hookgate’s argument names, as the tool would get it', async () => {
    const home = mkdtempSync(join(root, 'test-rewrite-'));
    const script = join(home, 'dry-run.sh');
    writeFileSync(script, DRY_RUN, { mode: 0o755 });
    writeFileSync(
      join(home, 'config.yaml'),
      `hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ${script}\n      payload: claude\n`,
    );
    const run = await runCliInProcess(['hooks', 'test', 'pre_tool_call', '--for-tool', 'terminal', '--home', home]);
    // Claude Code's Bash timeout is in milliseconds, the terminal tool's in seconds.
    expect(run.stdout).toContain(
      'parsed (Hermes wire shape): {"action": "rewrite", "args": {"command": "echo hello --dry-run", "timeout": 30}}',
    );
    expect(run.stdout).not.toContain('would not take these arguments');
  });

  it('an updatedInput the tool would refuse says what the live call does with it, and fails closed where the entry does (§5.10)', async () => {
    const home = mkdtempSync(join(root, 'test-bad-rewrite-'));
    const script = join(home, 'bad.sh');
    writeFileSync(script, `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput": {"updatedInput": {"command": 42}}}'\n`, {
      mode: 0o755,
    });
    const test = async (failClosed: boolean) => {
      writeFileSync(
        join(home, 'config.yaml'),
        `hooks:\n  pre_tool_call:\n    - command: ${script}\n      payload: claude\n      fail_closed: ${failClosed}\n`,
      );
      return runCliInProcess(['hooks', 'test', 'pre_tool_call', '--for-tool', 'terminal', '--expect', 'block', '--home', home]);
    };
    const open = await test(false);
    expect(open.stdout).toContain('⚠ the terminal tool would not take these arguments: the live call ignores the rewrite');
    // The live call's own warning, with the tool's reason.
    expect(open.stderr).toMatch(
      /rewrote the arguments of terminal into ones the tool does not take \(.*command.*\); the rewrite is ignored/,
    );
    expect(open.code).toBe(1);
    const closed = await test(true);
    expect(closed.stdout).toContain(
      `⚠ in the live call: {"action": "block", "message": "hook ${script} failed closed: rewritten arguments do not fit the tool (`,
    );
    expect(closed.code).toBe(0);
  });
});

describe('a payload: claude UserPromptSubmit hook adds context with hookSpecificOutput.additionalContext', () => {
  // As published for Claude Code: the JSON answer, never hookgate's {"context": …}.
  const ADD_CONTEXT = `#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
    "additionalContext": "Branch: main. Prompt was: " + event["prompt"]}}))
`;

  it('the live callback returns it as context, and hooks test meets --expect context', async () => {
    const home = mkdtempSync(join(root, 'context-'));
    const script = join(home, 'add_context.py');
    writeFileSync(script, ADD_CONTEXT, { mode: 0o755 });
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_llm_call:\n    - command: ${script}\n      payload: claude\n`);
    const [entry] = parseShellHooks({ hooks: { pre_llm_call: [{ command: script, payload: 'claude' }] } }, createMemoryLogger());
    const callback = shellHookCallback(entry!, createMemoryLogger());
    expect(await callback({ session_id: 's', user_message: 'hi' })).toEqual({ context: 'Branch: main. Prompt was: hi' });
    const run = await runCliInProcess(['hooks', 'test', 'pre_llm_call', '--expect', 'context', '--home', home]);
    expect(run.stdout).toContain('parsed (Hermes wire shape): {"context": "Branch: main. Prompt was: What is the weather?"}');
    expect(run.code).toBe(0);
  });

  it('a Hermes-payload entry keeps §3.7: only {"context": …} is context', async () => {
    const script = join(root, 'hermes_context.sh');
    writeFileSync(script, `#!/bin/sh\necho '{"hookSpecificOutput": {"additionalContext": "x"}}'\n`, { mode: 0o755 });
    const [entry] = parseShellHooks({ hooks: { pre_llm_call: [{ command: script }] } }, createMemoryLogger());
    expect(await shellHookCallback(entry!, createMemoryLogger())({ session_id: 's', user_message: 'hi' })).toBeUndefined();
  });
});

describe('hookgate hooks import (CLI)', () => {
  it('exit 2 for a settings file that is not Claude Code’s or a config.yaml that cannot be parsed; nothing written', async () => {
    const home = mkdtempSync(join(root, 'home-'));
    const bad = join(root, 'bad.json');
    writeFileSync(bad, '{"hooks": {"PreToolUse": "nope"}}');
    const good = join(root, 'good.json');
    writeFileSync(good, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '/h/x.sh' }] }] } }));
    const err: string[] = [];
    const write = process.stderr.write;
    const out = process.stdout.write;
    process.stderr.write = ((chunk: unknown) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      expect(await runCli(['hooks', 'import', '--from-claude', bad, '--home', home])).toBe(2);
      process.exitCode = undefined;
      writeFileSync(join(home, 'config.yaml'), 'hooks: [unclosed\n');
      expect(await runCli(['hooks', 'import', '--from-claude', good, '--home', home])).toBe(2);
      process.exitCode = undefined;
      writeFileSync(join(home, 'config.yaml'), 'hooks:\n  on_session_end: oops\n');
      expect(await runCli(['hooks', 'import', '--from-claude', good, '--home', home])).toBe(0);
    } finally {
      process.stderr.write = write;
      process.stdout.write = out;
      process.exitCode = undefined;
    }
    expect(err.join('')).toContain('hooks.PreToolUse: must be a list of matcher groups');
    expect(err.join('')).toContain('cannot be parsed');
    expect(parse(readFileSync(join(home, 'config.yaml'), 'utf8'))).toEqual({ hooks: { on_session_end: 'oops' } });
  });
});

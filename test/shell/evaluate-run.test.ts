import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { evaluateRun } from '../../src/hooks/shell/evaluate-run.ts';
import { parseHookOutput } from '../../src/hooks/shell/parse-hook-output.ts';
import type { ShellRunRecord } from '../../src/hooks/shell/spawn/run-record.ts';

const run = (over: Partial<ShellRunRecord>): ShellRunRecord => ({
  returncode: 0,
  stdout: '',
  stderr: '',
  timed_out: false,
  elapsed_seconds: 0.01,
  error: null,
  stdout_truncated: false,
  stderr_truncated: false,
  ...over,
});
const entry = (event: string, failClosed = false) => ({ event, command: '/h/x.sh', timeout: 7, failClosed });
const D = 'Blocked by shell hook.';

describe('parseHookOutput (§3.7, §5.3)', () => {
  const pre = (stdout: string) => parseHookOutput('pre_tool_call', stdout, createMemoryLogger());
  it.each([
    ['', undefined],
    ['   ', undefined],
    ['{"action": "block"}', { action: 'block', message: D }],
    ['{"decision": "block"}', { action: 'block', message: D }],
    ['{"action": "block", "message": ""}', { action: 'block', message: D }],
    ['{"action": "block", "message": 42, "reason": "r"}', { action: 'block', message: D }],
    ['{"action": "block", "message": "", "reason": "r"}', { action: 'block', message: 'r' }],
    ['{"decision": "block", "reason": "", "message": "m"}', { action: 'block', message: 'm' }],
    [
      '{"action": "block", "message": "canonical", "decision": "block", "reason": "claude"}',
      { action: 'block', message: 'canonical' },
    ],
    ['{"decision": "BLOCK"}', undefined],
    ['{"decision": "allow"}', undefined],
    ['{"context": "x"}', undefined],
    ['["block"]', undefined],
    ['"block"', undefined],
    ['{"a": 1} {"b": 2}', undefined],
    [
      '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no rm"}}',
      { action: 'block', message: 'no rm' },
    ],
    ['{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": ""}}', { action: 'block', message: D }],
    ['{"hookSpecificOutput": {"permissionDecision": "Deny"}}', undefined],
    ['{"hookSpecificOutput": {"permissionDecision": "ask"}}', undefined],
    [
      '{"decision": "block", "reason": "first", "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "second"}}',
      { action: 'block', message: 'first' },
    ],
  ])('pre_tool_call %s', (stdout, expected) => {
    expect(pre(stdout)).toEqual(expected);
  });

  it('other events: untrimmed non-blank context only; block shapes ignored', () => {
    const logger = createMemoryLogger();
    expect(parseHookOutput('pre_llm_call', '{"context": "  hi\\n"}', logger)).toEqual({ context: '  hi\n' });
    expect(parseHookOutput('post_tool_call', '{"context": "x"}', logger)).toEqual({ context: 'x' });
    expect(parseHookOutput('pre_llm_call', '{"context": "   "}', logger)).toBeUndefined();
    expect(parseHookOutput('pre_llm_call', '{"context": 5}', logger)).toBeUndefined();
    expect(parseHookOutput('subagent_stop', '{"action": "block", "message": "m"}', logger)).toBeUndefined();
  });

  it('invalid JSON warns with the event and the first 200 characters', () => {
    const logger = createMemoryLogger();
    expect(parseHookOutput('pre_llm_call', `not json ${'x'.repeat(300)}`, logger)).toBeUndefined();
    expect(logger.lines[0]!.message).toContain('pre_llm_call');
    expect(logger.lines[0]!.message).toContain('not valid JSON');
    expect(logger.lines[0]!.message).toContain(`not json ${'x'.repeat(191)}`);
    expect(logger.lines[0]!.message).not.toContain('x'.repeat(192));
  });
});

describe('evaluateRun (§3.5 step 7, §5.0–§5.2)', () => {
  it('errors and timeouts fail open with a warning', () => {
    const logger = createMemoryLogger();
    expect(
      evaluateRun(entry('pre_tool_call'), run({ error: 'command not found', returncode: null }), logger).result,
    ).toBeUndefined();
    expect(logger.lines[0]!.message).toContain('command not found');
    expect(logger.lines[0]!.message).toContain('/h/x.sh');
    expect(
      evaluateRun(entry('pre_llm_call'), run({ timed_out: true, returncode: null, elapsed_seconds: 1.234 }), logger).result,
    ).toBeUndefined();
    expect(logger.lines[1]!.message).toContain('1.23s');
  });

  it('fail_closed turns error, timeout and unparseable stdout into blocks', () => {
    const logger = createMemoryLogger();
    expect(evaluateRun(entry('pre_tool_call', true), run({ error: 'command not found', returncode: null }), logger)).toEqual({
      result: { action: 'block', message: 'hook /h/x.sh failed closed: command not found' },
      failedClosed: true,
    });
    expect(evaluateRun(entry('pre_tool_call', true), run({ timed_out: true, returncode: null }), logger).result).toEqual({
      action: 'block',
      message: 'hook /h/x.sh failed closed: timed out after 7s',
    });
    for (const stdout of ['nope', '[1]', '"s"', '3']) {
      expect(evaluateRun(entry('pre_tool_call', true), run({ stdout }), logger).result).toEqual({
        action: 'block',
        message: 'hook /h/x.sh failed closed: unparseable stdout (expected a JSON object)',
      });
    }
    expect(evaluateRun(entry('pre_tool_call', true), run({ returncode: 1 }), logger).result).toBeUndefined();
    expect(evaluateRun(entry('pre_tool_call', true), run({ stdout: '{"ok": 1}' }), logger).result).toBeUndefined();
  });

  it('exit 2 blocks on pre_tool_call whatever stdout says; elsewhere it is an ordinary exit', () => {
    const logger = createMemoryLogger();
    const blocked = (over: Partial<ShellRunRecord>) =>
      evaluateRun(entry('pre_tool_call'), run({ returncode: 2, ...over }), logger).result;
    expect(blocked({ stdout: '{"decision": "allow"}', stderr: ' rm -rf refused \n' })).toEqual({
      action: 'block',
      message: 'rm -rf refused',
    });
    expect(blocked({ stdout: '{"context": "x"}' })).toEqual({ action: 'block', message: D });
    expect(blocked({ stdout: 'garbage', stderr: 'e'.repeat(500) })).toEqual({ action: 'block', message: 'e'.repeat(400) });
    expect(blocked({ stdout: '{"action": "block", "message": "from stdout"}', stderr: 'x' })).toEqual({
      action: 'block',
      message: 'from stdout',
    });
    expect(logger.lines.some((l) => l.level === 'info' && l.message.includes('exit code 2'))).toBe(true);
    expect(evaluateRun(entry('pre_llm_call'), run({ returncode: 2, stderr: 'x' }), logger).result).toBeUndefined();
  });

  it('a non-zero exit warns and still parses stdout', () => {
    const logger = createMemoryLogger();
    expect(
      evaluateRun(
        entry('pre_tool_call'),
        run({ returncode: 1, stdout: '{"action": "block", "message": "m"}', stderr: 'why' }),
        logger,
      ).result,
    ).toEqual({ action: 'block', message: 'm' });
    const warn = logger.lines.find((l) => l.level === 'warn')!.message;
    expect(warn).toContain('code 1');
    expect(warn).toContain('why');
    expect(logger.lines.some((l) => l.level === 'debug' && l.message.includes('why'))).toBe(true);
  });
});

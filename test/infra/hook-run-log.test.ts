import { describe, expect, it } from 'vitest';
import { HOOK_RUN_MESSAGE, hookRunOutcome, writeHookRunLine } from '../../functions/support/hook-run-log.ts';

/** The dashboard's per-hook widgets read these lines (infra/lib/dashboard.ts): their shape is the contract. */
describe('the hook-run log line', () => {
  it('names the hook, callback and outcome, with the duration, and never the kwargs or result', () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      lines.push(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      writeHookRunLine('hookgate-turn', {
        hook: 'pre_tool_call',
        source: 'shell',
        callback: 'shell_hook[pre_tool_call:guard.sh]',
        durationMs: 12.345,
        result: { decision: 'block', reason: 'sk-secret-in-reason' },
      });
    } finally {
      process.stdout.write = write;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      level: 'INFO',
      message: HOOK_RUN_MESSAGE,
      service: 'hookgate-turn',
      hook: 'pre_tool_call',
      source: 'shell',
      duration_ms: 12.3,
      outcome: 'block',
    });
    expect(lines[0]).not.toContain('sk-secret-in-reason');
  });

  it('tells block, error and ok apart', () => {
    const run = { hook: 'pre_tool_call', source: 'plugin' as const, callback: 'guard', durationMs: 1 };
    expect(hookRunOutcome({ ...run, result: { action: 'block', message: 'no' } })).toBe('block');
    expect(hookRunOutcome({ ...run, error: 'boom' })).toBe('error');
    expect(hookRunOutcome({ ...run, result: { action: 'allow' } })).toBe('ok');
    expect(hookRunOutcome({ ...run, result: null })).toBe('ok');
  });
});

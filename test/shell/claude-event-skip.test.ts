import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { callCollectingDetail, type RunDetail } from '../../src/hooks/run-detail.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import { shellHookCallback } from '../../src/hooks/shell/shell-hook-callback.ts';

describe('a payload: claude PostToolUse hook that does not fire says why in its run detail (the trace)', () => {
  const logger = createMemoryLogger();
  const callback = (claudeEvent?: string) => {
    const [entry] = parseShellHooks(
      {
        hooks: {
          post_tool_call: [{ command: '/bin/true', payload: 'claude', ...(claudeEvent ? { claude_event: claudeEvent } : {}) }],
        },
      },
      logger,
    );
    return shellHookCallback(entry!, logger);
  };
  const detailOf = async (fn: (kwargs: Record<string, unknown>) => Promise<unknown>, status: string) => {
    const box: { detail?: RunDetail } = {};
    expect(await callCollectingDetail(box, () => fn({ tool_name: 'terminal', args: { command: 'ls' }, status }))).toBeUndefined();
    return box.detail;
  };

  it('a blocked call: Claude Code fires no PostToolUse for it, and the trace says skipped, not observed', async () => {
    expect(await detailOf(callback(), 'blocked')).toEqual({
      skipped: 'the call was blocked (Claude Code fires no PostToolUse for it)',
    });
  });

  it('PostToolUse for a failed call, PostToolUseFailure for a good one', async () => {
    expect(await detailOf(callback('PostToolUse'), 'error')).toEqual({
      skipped: 'the call failed (PostToolUseFailure, not PostToolUse)',
    });
    expect(await detailOf(callback('PostToolUseFailure'), 'ok')).toEqual({
      skipped: 'the call did not fail (PostToolUse, not PostToolUseFailure)',
    });
  });
});

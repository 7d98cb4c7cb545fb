import { expect, it } from 'vitest';
import type { ShellHookStatus } from '../../src/console/console-data.ts';
import { guardChanges } from '../../src/local/dev-hot-reload.ts';

const plugin = (name: string, enabled: boolean, failed: string | null) => ({ name, dir: name, enabled, failed });

it('a reload prints each plugin guard that went off (load failed, not enabled, folder gone) or came back', () => {
  const before = {
    shell_hooks: [],
    plugins: [
      plugin('veto', true, null),
      plugin('audit', true, null),
      plugin('gone', true, null),
      plugin('fixed', true, 'Error: boom'),
    ],
  };
  const now = {
    shell_hooks: [],
    plugins: [plugin('veto', true, 'Error: no policy file'), plugin('audit', false, null), plugin('fixed', true, null)],
  };
  expect(guardChanges(before, now)).toEqual([
    'hookgate dev: ✗ guard off: plugin veto does not run now: failed to load: Error: no policy file',
    'hookgate dev: ✗ guard off: plugin audit does not run now: not enabled in config.yaml',
    'hookgate dev: ✓ guard on: plugin fixed runs now',
    'hookgate dev: ✗ guard off: plugin gone does not run now: its folder is gone',
  ]);
  expect(guardChanges(now, now)).toEqual([]);
});

const hook = (command: string, running: boolean, not_running: ShellHookStatus['not_running']) =>
  ({
    event: 'pre_tool_call',
    command,
    matcher: null,
    timeout: 60,
    enabled: true,
    approved: not_running !== 'not-approved',
    approved_at: null,
    drift: null,
    running,
    not_running,
  }) as ShellHookStatus;

it('a shell hook that went off or came back says so; one added and not approved yet is a new hook, not a guard that went off', () => {
  const before = { shell_hooks: [hook('/h/guard.sh', true, null), hook('/h/was-off.sh', false, 'not-approved')], plugins: [] };
  const now = {
    shell_hooks: [
      hook('/h/guard.sh', false, 'changed-since-approval'),
      hook('/h/was-off.sh', true, null),
      hook('/h/added.sh', false, 'not-approved'),
    ],
    plugins: [],
  };
  const lines = guardChanges(before, now);
  expect(lines[0]).toMatch(/^hookgate dev: ✗ guard off: \[pre_tool_call\] \/h\/guard\.sh does not run now: /);
  expect(lines.slice(1)).toEqual([
    'hookgate dev: ✓ guard on: [pre_tool_call] /h/was-off.sh runs now',
    expect.stringMatching(/^hookgate dev: ✗ new hook not running: \[pre_tool_call\] \/h\/added\.sh does not run yet: /),
  ]);
  // Approved at the next reload: it runs now (it never ran, so not "again").
  expect(
    guardChanges(now, { ...now, shell_hooks: [now.shell_hooks[0]!, now.shell_hooks[1]!, hook('/h/added.sh', true, null)] }),
  ).toEqual(['hookgate dev: ✓ guard on: [pre_tool_call] /h/added.sh runs now']);
});

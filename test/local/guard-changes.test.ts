import { expect, it } from 'vitest';
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
    'hookgate dev: ✓ guard on: plugin fixed runs again',
    'hookgate dev: ✗ guard off: plugin gone does not run now: its folder is gone',
  ]);
  expect(guardChanges(now, now)).toEqual([]);
});

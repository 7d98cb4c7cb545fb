import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { devStateDir, prepareDevState } from '../../src/local/dev-state.ts';

it('keeps dev state in --state, else HOOKGATE_DEV_STATE, else .hookgate/state in the hooks home; a blank value is unset, memory keeps nothing', () => {
  expect(devStateDir('/tmp/s', { HOOKGATE_DEV_STATE: '/elsewhere' }, '/h')).toBe('/tmp/s');
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: '/elsewhere' }, '/h')).toBe('/elsewhere');
  expect(devStateDir(undefined, {}, '/h')).toBe('/h/.hookgate/state');
  // Two homes run from one directory keep two histories.
  expect(devStateDir(undefined, {}, '/other')).toBe('/other/.hookgate/state');
  // An empty variable once put the table in the current directory (an untracked dynamodb/ in the repo).
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: '' }, '/h')).toBe('/h/.hookgate/state');
  expect(devStateDir('  ', { HOOKGATE_DEV_STATE: ' ' }, '/h')).toBe('/h/.hookgate/state');
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: 'memory' })).toBeUndefined();
  expect(devStateDir('memory', { HOOKGATE_DEV_STATE: 'memory' })).toBe('memory');
});

it("makes the state folder the operator's alone (0700): the table's files hold every chat, and LevelDB makes them world-readable", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-state-'));
  try {
    await chmod(dir, 0o755); // an existing folder, as --state may name
    const state = await prepareDevState({ dir });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    await state.release();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

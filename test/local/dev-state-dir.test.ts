import { expect, it } from 'vitest';
import { devStateDir } from '../../src/local/dev-state.ts';

it('keeps dev state in --state, else HOOKGATE_DEV_STATE, else .hookgate; a blank value is unset, memory keeps nothing', () => {
  expect(devStateDir('/tmp/s', { HOOKGATE_DEV_STATE: '/elsewhere' })).toBe('/tmp/s');
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: '/elsewhere' })).toBe('/elsewhere');
  expect(devStateDir(undefined, {})).toBe('.hookgate');
  // An empty variable once put the table in the current directory (an untracked dynamodb/ in the repo).
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: '' })).toBe('.hookgate');
  expect(devStateDir('  ', { HOOKGATE_DEV_STATE: ' ' })).toBe('.hookgate');
  expect(devStateDir(undefined, { HOOKGATE_DEV_STATE: 'memory' })).toBeUndefined();
  expect(devStateDir('memory', { HOOKGATE_DEV_STATE: 'memory' })).toBe('memory');
});

import { expect, it } from 'vitest';
import { devStateDir } from '../../src/local/dev-state.ts';

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

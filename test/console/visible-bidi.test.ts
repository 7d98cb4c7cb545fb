import { expect, it } from 'vitest';
import { visibleBidi } from '../../src/console/visible-bidi.ts';

it('writes out every bidirectional control character and leaves all other text as it is', () => {
  expect(visibleBidi('invoice\u202efdp.exe')).toBe('invoice\\u202efdp.exe');
  expect(visibleBidi('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069')).toBe(
    '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
  );
  // Right-to-left text itself, line breaks and emoji are shown as they are.
  expect(visibleBidi('שלום\nمرحبا 🎉 <b>')).toBe('שלום\nمرحبا 🎉 <b>');
});

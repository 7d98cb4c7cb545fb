import * as z from '../validation/zod.ts';

/** An http(s) URL, trailing slashes dropped (base URLs are joined with paths). */
export const httpUrl = z.pipe(
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  z.transform((url: string) => url.replace(/\/+$/, '')),
);

/** A token: anything without spaces. */
export const token = z.string().check(z.regex(/^\S+$/, { error: 'must not contain spaces' }));

import * as z from 'zod';

/** An http(s) URL, trailing slashes dropped (base URLs are joined with paths). */
export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''));

/** A token: anything without spaces. */
export const token = z.string().regex(/^\S+$/, { error: 'must not contain spaces' });

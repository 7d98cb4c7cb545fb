/**
 * zod for every schema in `src/` and `functions/`: `zod/mini` with zod's English messages.
 *
 * Classic `zod` costs every cold start ≈ 13 ms more than `zod/mini` before a single schema is
 * built (its module attaches ~50 methods to every schema and brings 75 KB more code into each
 * function's startup chunk; docs/performance.md#cold-start), and the functions validate their
 * configuration at cold start. `zod/mini` has the same core and the same parse results, with
 * functions instead of methods (`z.optional(z.string())`, `.check(z.minLength(1))`). It loads no
 * locale by itself (every message would read "Invalid input"), so this module sets the English
 * one, the messages classic `zod` gives, before any schema runs. Import zod from here only
 * (Biome's `noRestrictedImports` refuses `zod` and `zod/mini` elsewhere in `src/` and `functions/`).
 *
 * @example
 * import * as z from '../validation/zod.ts';
 * const Port = z.int().check(z.gte(1), z.lte(65_535));
 * Port.safeParse(0).error?.issues[0]?.message; // 'Too small: expected number to be >=1'
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

z.config(en());

export * from 'zod/mini';

import * as z from '../../validation/zod.ts';

/** config.yaml `terminal.sandbox` (hook-semantics §5.9): `auto` (default: bwrap where it runs), `bwrap`, or `none` (unsandboxed, warned at every start). */
export const SandboxSettingSchema = z.enum(['auto', 'bwrap', 'none']);
export type SandboxSetting = z.infer<typeof SandboxSettingSchema>;

/** config.yaml `terminal.network`: `none` (default: loopback only, in a namespace of its own) or `host`. */
export const NetworkSettingSchema = z.enum(['none', 'host']);
export type NetworkSetting = z.infer<typeof NetworkSettingSchema>;

import { isAbsolute, resolve } from 'node:path';
import * as z from '../../validation/zod.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { envPassthroughAt } from '../../hooks/shell/spawn/hook-environment.ts';
import {
  NetworkSettingSchema,
  SandboxSettingSchema,
  type NetworkSetting,
  type SandboxSetting,
} from '../sandbox/sandbox-settings.ts';

/**
 * What the operator loosened for the tools a chat user steers (config.yaml, hook-semantics
 * §5.8; docs/security.md). The defaults are the safe ones: the terminal gets the short
 * environment allowlist only, and the file tools reach the session workspace only.
 */
export interface ToolPolicy {
  /** `terminal.env_passthrough`: variables passed to the terminal's child besides the short allowlist. */
  readonly terminalEnvPassthrough: readonly string[];
  /** `files.allowed_roots`: absolute directories the file tools may use besides the workspace. */
  readonly allowedRoots: readonly string[];
  /** The hooks home: never reachable through the file tools unless a root names it (or a path inside it). */
  readonly hooksHome?: string;
  /** `terminal.sandbox` (hook-semantics §5.9): `auto` (default: bwrap where it runs), `bwrap`, or `none` (unsandboxed, warned). */
  readonly sandbox?: SandboxSetting;
  /** `terminal.network`: `none` (default: no network inside the sandbox) or `host`. */
  readonly network?: NetworkSetting;
}

/** The safe defaults: nothing passed through, no root but the workspace, the sandbox where one runs, no network. */
export const DEFAULT_TOOL_POLICY: ToolPolicy = { terminalEnvPassthrough: [], allowedRoots: [], sandbox: 'auto', network: 'none' };

/** `files.allowed_roots`: a list of non-empty paths (`~/…` is the home directory, relative paths are the hooks home's). */
export const AllowedRootsSchema = z.array(z.string().check(z.trim(), z.minLength(1, 'must be a non-empty path')));

/**
 * The tool policy from a config.yaml mapping (zod-validated). A malformed value is a warning
 * and keeps its safe default.
 *
 * @example
 * toolPolicyFromConfig({ files: { allowed_roots: ['/srv/data'] }, terminal: { env_passthrough: ['GOPATH'] } }, '/home/me/.hermes', logger)
 * // { terminalEnvPassthrough: ['GOPATH'], allowedRoots: ['/srv/data'], hooksHome: '/home/me/.hermes' }
 */
export function toolPolicyFromConfig(config: unknown, hooksHome: string | undefined, logger: HookLogger): ToolPolicy {
  const section = (name: string): Record<string, unknown> => {
    const value = isPlainObject(config) ? config[name] : undefined;
    if (value !== undefined && value !== null && !isPlainObject(value))
      logger.warn(`${name}: in config.yaml must be a mapping; ignoring it`);
    return isPlainObject(value) ? value : {};
  };
  const terminalEnvPassthrough = envPassthroughAt(section('terminal').env_passthrough, 'terminal.env_passthrough', logger);
  const rawRoots = section('files').allowed_roots;
  let allowedRoots: string[] = [];
  if (rawRoots !== undefined && rawRoots !== null) {
    const parsed = AllowedRootsSchema.safeParse(rawRoots);
    if (parsed.success) {
      allowedRoots = parsed.data.map((root) => absoluteRoot(root, hooksHome));
    } else {
      const issue = parsed.error.issues[0];
      logger.warn(
        `files.allowed_roots${issue?.path.length ? `[${issue.path.join('.')}]` : ''}: ${issue?.message ?? 'invalid'}; ignoring it (the file tools keep to the workspace)`,
      );
    }
  }
  const sandbox = settingAt(section('terminal').sandbox, SandboxSettingSchema, 'terminal.sandbox', 'auto', logger);
  const network = settingAt(section('terminal').network, NetworkSettingSchema, 'terminal.network', 'none', logger);
  return { terminalEnvPassthrough, allowedRoots, ...(hooksHome ? { hooksHome: resolve(hooksHome) } : {}), sandbox, network };
}

/**
 * One enum setting: unset is the default; a value outside the enum is a warning and keeps the
 * default, which is the safe one (`terminal.sandbox: auto`, `terminal.network: none`).
 */
function settingAt<T extends string>(raw: unknown, schema: z.ZodMiniType<T>, name: string, fallback: T, logger: HookLogger): T {
  if (raw === undefined || raw === null) return fallback;
  const parsed = schema.safeParse(typeof raw === 'string' ? raw.trim().toLowerCase() : raw);
  if (parsed.success) return parsed.data;
  logger.warn(
    `${name}: ${JSON.stringify(raw)} is not one of ${(schema as unknown as { options: string[] }).options.join(', ')}; using ${fallback}`,
  );
  return fallback;
}

function absoluteRoot(root: string, hooksHome: string | undefined): string {
  const home = process.env.HOME;
  if ((root === '~' || root.startsWith('~/')) && home) return resolve(home, root.slice(2));
  return isAbsolute(root) ? resolve(root) : resolve(hooksHome ?? process.cwd(), root);
}

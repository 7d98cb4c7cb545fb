import type { CallbackRegistry } from '../callback-registry.ts';
import type { HookLogger } from '../hook-logger.ts';
import type { AllowlistStore } from './allowlist-store.ts';
import type { ShellHookEntry } from './shell-hook-entry.ts';

export type { ShellHookEntry } from './shell-hook-entry.ts';

export interface RegisterShellHooksOptions {
  /** The whole parsed `config.yaml` mapping. */
  config: Record<string, unknown>;
  registry: CallbackRegistry;
  allowlist: AllowlistStore;
  /** The `--accept-hooks` flag. */
  acceptHooks: boolean;
  /** The engine's idempotence set (§3.4); a fresh engine passes a fresh set. */
  seen: Set<string>;
  logger: HookLogger;
  env?: NodeJS.ProcessEnv;
}

/**
 * Registers the configured shell hooks into `registry` (hook-semantics §3.4), after plugins.
 * (First version: registers nothing; the real one follows.)
 */
export async function registerShellHooks(options: RegisterShellHooksOptions): Promise<ShellHookEntry[]> {
  void options;
  return [];
}

import type { LogLevel } from './hook-logger.ts';
import type { AllowlistEntry } from './shell/consent/allowlist-store.ts';
import type { BundledShellCommand } from './shell/config/bundled-shell-command.ts';

/** A message found during discovery, replayed to the engine's logger when it loads. */
export interface DiscoveryNotice {
  readonly level: LogLevel;
  readonly message: string;
}

/** One plugin candidate: `plugins/<dir>/plugin.yaml` + an entry module (§1.2). */
export interface PluginDescription {
  /** Directory name; load order is its code-point order. */
  readonly dir: string;
  /** The manifest's `name`, or the directory name. */
  readonly name: string;
  /** Entry module, relative to the hooks home, `/`-separated (`plugins/audit/index.ts`). */
  readonly entry: string;
  /** The validated manifest. */
  readonly manifest: Record<string, unknown>;
  /** In `plugins.enabled` and not in `plugins.disabled`. */
  readonly enabled: boolean;
  /** Named in `plugins.disabled` (never loads, even when also enabled). */
  readonly disabled: boolean;
}

/** What discovery decided for one `hooks/<dir>` (§2.1), in directory order. */
export type GatewayHookDescription =
  | {
      readonly kind: 'hook';
      readonly dir: string;
      readonly name: string;
      readonly description: unknown;
      /** The valid event names, in list order. */
      readonly events: readonly string[];
      /** Handler module, relative to the hooks home (`hooks/log/handler.ts`). */
      readonly handler: string;
    }
  /** Printed as-is (`[hooks] Skipping …` / `[hooks] Error loading hook …`); nothing registered. */
  | { readonly kind: 'skip'; readonly dir: string; readonly line: string };

/**
 * Everything discovery learns from a hooks home, as plain JSON: the same description
 * drives loading from disk (`npm start`) and from a bundle's static module list (Lambda),
 * so both give the same registry.
 */
export interface HooksHomeDescription {
  /** Absolute path of the hooks home when it was described. */
  readonly home: string;
  /** The parsed config.yaml (`{}` when missing or unusable). */
  readonly config: Record<string, unknown>;
  readonly plugins: readonly PluginDescription[];
  /** Only when gateway hooks were discovered (the CLI never does, §2.1). */
  readonly gatewayHooks: readonly GatewayHookDescription[];
  readonly notices: readonly DiscoveryNotice[];
  /**
   * Only in a deployed bundle: where each configured shell-hook command's script sits in the
   * bundled home, keyed by the command as written (infra/lib/hooks-bundle.ts).
   */
  readonly shellCommands?: Readonly<Record<string, BundledShellCommand>>;
  /** Only in a deployed bundle built with `-c approveShellHooks=all`: the approvals that shipped with it. */
  readonly approvedShellHooks?: readonly AllowlistEntry[];
}

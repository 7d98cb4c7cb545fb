import type { AllowlistEntry } from './allowlist-store.ts';
import type { DriftPolicy } from './drift-guard.ts';
import type { HookEntryType } from '../config/shell-hook-entry.ts';
import { scriptDrift } from './script-drift.ts';
import { needsConsent } from './needs-consent.ts';

/** Why a configured shell hook does not run. */
export type NotRunningReason = 'disabled' | 'not-approved' | 'changed-since-approval';

/** Whether a configured shell hook runs when its event fires, and if not, why (a guard that is off must say so). */
export type ShellHookRunState = { running: true } | { running: false; reason: NotRunningReason };

/** The words the console and `hookgate hooks list` use for each reason. */
export const NOT_RUNNING_TEXT: Readonly<Record<NotRunningReason, string>> = {
  disabled: 'disabled in config.yaml (enabled: false)',
  'not-approved': 'not approved (not in the allowlist)',
  'changed-since-approval': 'script changed since approval (hook-semantics §5.5)',
};

/**
 * Whether a shell hook runs, as registration and the drift guard decide it (hook-semantics
 * §3.8, §5.5): off when disabled, without an approval, or — with `hooks_on_drift: block`, the
 * default — when its script's content changed since approval. A script whose mtime alone
 * moved still runs. A prompt hook (`type: prompt`) runs whenever it is enabled: registration
 * asks no consent for it (it runs no code, hook-semantics §5.10), so it has no approval to lack.
 *
 * @example
 * shellHookRunState({ enabled: true, command: 'guard.sh' }, undefined, 'block'); // { running: false, reason: 'not-approved' }
 * shellHookRunState({ enabled: true, command: 'prompt: Safe?', type: 'prompt' }, undefined, 'block'); // { running: true }
 */
export function shellHookRunState(
  entry: { readonly enabled: boolean; readonly command: string; readonly type?: HookEntryType | undefined },
  approval: AllowlistEntry | undefined,
  policy: DriftPolicy,
  env: NodeJS.ProcessEnv = process.env,
): ShellHookRunState {
  if (!entry.enabled) return { running: false, reason: 'disabled' };
  if (!needsConsent(entry)) return { running: true };
  if (!approval) return { running: false, reason: 'not-approved' };
  if (policy === 'block' && scriptDrift(approval, entry.command, env).kind === 'content-changed')
    return { running: false, reason: 'changed-since-approval' };
  return { running: true };
}

import type { HookLogger } from '../../hook-logger.ts';
import { reportRunDetail } from '../../run-detail.ts';
import type { AllowlistEntry, AllowlistStore } from './allowlist-store.ts';
import { scriptDrift } from './script-drift.ts';
import type { ShellHookEntry } from '../config/shell-hook-entry.ts';

/** `hooks_on_drift` in config.yaml (hook-semantics §5.5): `block` (default) or `warn` (the reference's run-and-warn). */
export type DriftPolicy = 'block' | 'warn';

/**
 * Reads `hooks_on_drift` from the config mapping. Anything other than `block`/`warn` draws a
 * warning and means `block`, the safe default.
 *
 * @example
 * driftPolicy({ hooks_on_drift: 'warn' }, logger); // 'warn'
 */
export function driftPolicy(config: Record<string, unknown>, logger: HookLogger): DriftPolicy {
  const raw = config.hooks_on_drift;
  if (raw === undefined || raw === null) return 'block';
  if (raw === 'block' || raw === 'warn') return raw;
  logger.warn(`hooks_on_drift must be "block" or "warn" (got ${JSON.stringify(raw)}); using "block"`);
  return 'block';
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;

/** The content drift of an approved script, or undefined when it is unchanged (or cannot be judged). */
export function contentDrift(
  approval: AllowlistEntry,
  command: string,
  env?: NodeJS.ProcessEnv,
): { recorded: string; current: string } | undefined {
  const drift = scriptDrift(approval, command, env);
  return drift.kind === 'content-changed' ? { recorded: drift.recorded, current: drift.current } : undefined;
}

/**
 * Pins a shell hook's consent to the content approved (§5.5 "Running a drifted script"): on
 * every call the script's sha256 is compared with `script_sha256_at_approval` (the allowlist
 * is read again first, so a re-approval takes effect at once). Changed, the script does not
 * run: a warning names the event, the command and both abbreviated hashes, and the result is
 * "no value" — for a `fail_closed` `pre_tool_call` entry, the fail-closed block. With
 * `hooks_on_drift: warn` it runs after the warning. Registration logs the same warning once
 * (`warnAtRegistration`).
 *
 * @example
 * const fn = guardDrift(entry, approval, { allowlist, policy: 'block', logger }, shellHookCallback(entry, logger));
 */
export function guardDrift(
  entry: ShellHookEntry,
  approval: AllowlistEntry,
  options: { allowlist: AllowlistStore; policy: DriftPolicy; logger: HookLogger; env?: NodeJS.ProcessEnv },
  run: (kwargs: Record<string, unknown>) => Promise<unknown>,
): (kwargs: Record<string, unknown>) => Promise<unknown> {
  const { allowlist, policy, logger, env } = options;
  const gated = entry.event === 'pre_tool_call' || entry.event === 'post_tool_call';
  let recorded = approval;
  return async (kwargs) => {
    // A call the matcher does not take is not a skipped call: no check, no warning.
    if (gated && !entry.matches(kwargs.tool_name)) return run(kwargs);
    let drift = contentDrift(recorded, entry.runCommand ?? entry.command, env);
    if (drift) {
      recorded = (await allowlist.find(entry.event, entry.command).catch(() => undefined)) ?? recorded;
      drift = contentDrift(recorded, entry.runCommand ?? entry.command, env);
    }
    if (!drift) return run(kwargs);
    if (policy === 'warn') {
      logger.warn(driftMessage(entry, drift, 'running it anyway (hooks_on_drift: warn)'));
      return run(kwargs);
    }
    logger.warn(driftMessage(entry, drift, 'not running it'));
    // A fail-closed guard blocks: its trace record says so (the block names the cause), not `skipped`.
    if (entry.failClosed && entry.event === 'pre_tool_call') {
      return { action: 'block', message: `hook ${entry.command} failed closed: script changed since approval` };
    }
    reportRunDetail({ skipped: 'changed since approval' });
    return undefined;
  };
}

/** The registration-time warning for a drifted script (logged once per entry). */
export function warnAtRegistration(
  entry: ShellHookEntry,
  approval: AllowlistEntry,
  policy: DriftPolicy,
  logger: HookLogger,
  env?: NodeJS.ProcessEnv,
): void {
  const drift = contentDrift(approval, entry.runCommand ?? entry.command, env);
  if (!drift) return;
  logger.warn(
    driftMessage(
      entry,
      drift,
      policy === 'warn' ? 'it will run anyway (hooks_on_drift: warn)' : 'it will not run until re-approved',
    ),
  );
}

function driftMessage(entry: ShellHookEntry, drift: { recorded: string; current: string }, consequence: string): string {
  return (
    `shell hook script changed since approval, ${consequence}: event=${entry.event} command=${entry.command} ` +
    `sha256 ${short(drift.recorded)} → ${short(drift.current)}. Review the script, then ` +
    '`hookgate hooks revoke <command>` and approve it again (`hookgate hooks approve <event> <command>`).'
  );
}

import { firstCharacters } from '../../hooks/first-characters.ts';
import { isRunnableAsConfigured, scriptFile } from '../../hooks/shell/consent/script-path.ts';
import { checkScriptSyntax } from '../script-syntax.ts';
import { lambdaMissingPrograms } from '../../hooks/shell/config/lambda-compatibility.ts';
import { scriptDrift } from '../../hooks/shell/consent/script-drift.ts';
import { runShellCommand } from '../../hooks/shell/spawn/run-shell-command.ts';
import { shellHookInput } from '../../hooks/shell/shell-hook-callback.ts';
import type { HooksContext } from './hooks-context.ts';
import { doctorHttpHook, doctorPromptHook } from './hooks-doctor-http-prompt.ts';
import { doctorPayload } from './hooks-payloads.ts';
import { BAD, green, INFO, OK, say, seconds, WARN, yellow } from './hooks-output.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * `hookgate hooks doctor` (hook-semantics §4.4, §5.4, §5.5, §5.8): per entry — executable,
 * shell syntax (`sh -n` / `bash -n`, by the script's `#!` line), allowlisted, drift, and a JSON smoke test that never runs an un-approved script, nor one
 * whose content changed since approval (unless `hooks_on_drift: warn`). Exits 0; with
 * `strict` (`--strict`, for CI), exits 1 when it counted a problem.
 *
 * @example
 * const status = await doctorHooks(ctx, { strict: true }); // 1 if any problem was found
 */
export async function doctorHooks(ctx: HooksContext, options: { strict?: boolean } = {}): Promise<number> {
  if (ctx.entries.length === 0) {
    say('No shell hooks configured — nothing to check.');
    return 0;
  }
  say(`Checking ${ctx.entries.length} configured shell hook(s)...`);
  say();
  let problems = 0;
  for (const entry of ctx.entries) {
    say(`[${entry.event}] ${entry.command}`);
    if (!entry.enabled) {
      say(`  ${INFO()} disabled (enabled: false) — not checked`);
      say();
      continue;
    }
    if (entry.type === 'http' || entry.type === 'prompt') {
      problems += entry.type === 'http' ? await doctorHttpHook(entry, ctx) : await doctorPromptHook(entry, ctx);
      say();
      continue;
    }
    const runnable = isRunnableAsConfigured(entry.command);
    if (runnable) say(`  ${OK()} script exists and is executable`);
    else {
      say(`  ${BAD()} script missing or not executable (chmod +x the file, or fix the path)`);
      problems++;
    }
    // A syntax error makes bash exit 2, which reads as a block: say so before anything runs it.
    // A warning, not a problem: §4.4 counts its four checks only (the footer and --strict).
    const syntax = runnable ? await checkScriptSyntax(scriptFile(entry.command)) : undefined;
    if (syntax?.ok) say(`  ${OK()} shell syntax OK (${syntax.shell} -n)`);
    else if (syntax) {
      say(
        `  ${WARN()} shell syntax error (${syntax.shell} -n): ${firstCharacters(syntax.stderr.replace(/\s+/g, ' '), 300)} — ` +
          'exit 2 from a syntax error reads as a block',
      );
    }
    // Not a problem here (it runs on this machine), but the deployed stack would fail it open.
    const missing = lambdaMissingPrograms(entry.command);
    if (missing.length > 0) {
      say(`  ${INFO()} would not run in AWS Lambda (nodejs22.x has no ${missing.join(', ')}); see docs/deploy.md`);
    }
    const approval = await ctx.allowlist.find(entry.event, entry.command);
    if (approval) say(`  ${OK()} allowlisted (approved ${approval.approved_at || '?'})`);
    else {
      say(
        `  ${BAD()} not allowlisted — this hook will NOT fire at runtime; run once with --accept-hooks, ` +
          'confirm it at the TTY prompt, or `hookgate hooks approve <event> <command>`',
      );
      problems++;
    }
    let changed = false;
    if (approval) {
      const drift = scriptDrift(approval, entry.command);
      if (drift.kind === 'content-changed') {
        changed = true;
        say(
          `  ${WARN()} script content changed since approval (sha256 ${drift.recorded.slice(0, 12)}… → ${drift.current.slice(0, 12)}…); ` +
            'review the changes, then revoke and re-approve',
        );
        problems++;
      } else if (drift.kind === 'content-same') {
        say(`  ${OK()} script unchanged since approval`);
        if (drift.mtimeMoved) {
          say(
            `  ${INFO()} script timestamp changed (${drift.recordedMtime} → ${drift.currentMtime}) but the content is identical`,
          );
        }
      } else if (approval.script_mtime_at_approval != null) {
        if (drift.kind === 'mtime-later') {
          say(
            `  ${WARN()} script modified since approval (approved mtime ${drift.recorded}, now ${drift.current}); ` +
              'review the changes, then revoke and re-approve to refresh',
          );
          problems++;
        } else if (drift.kind === 'mtime-same') say(`  ${OK()} script unchanged since approval`);
      }
    }
    if (!approval) {
      say(`  ${INFO()} skipped JSON smoke test — not allowlisted yet (approve it first, then re-run doctor)`);
    } else if (changed && ctx.onDrift === 'block') {
      // §5.5: a drifted script counts as not allowlisted; doctor never runs un-approved content.
      say(
        `  ${INFO()} skipped JSON smoke test — the script changed since approval and was not executed (review it, then re-approve and re-run doctor)`,
      );
    } else if (runnable) {
      problems += await smokeTest(entry, ctx.environment);
    }
    say();
  }
  say(
    problems > 0
      ? yellow(`${problems} issue(s) found.  Fix before relying on these hooks.`)
      : green('All shell hooks look healthy.'),
  );
  return options.strict === true && problems > 0 ? 1 : 0;
}

/** Check 4 (§4.4): one run on the synthetic payload; 1 if that is a problem. */
async function smokeTest(entry: HooksContext['entries'][number], environment: HooksContext['environment']): Promise<number> {
  let payload: ReturnType<typeof shellHookInput>;
  try {
    payload = shellHookInput(entry, doctorPayload(entry.event));
  } catch (error) {
    say(`  ${BAD()} execution error: ${errorText(error)}`);
    return 1;
  }
  const run = await runShellCommand(entry.command, payload.input, entry.timeout, {
    path: 'exact',
    environment,
    ...(payload.extraEnv ? { extraEnv: payload.extraEnv } : {}),
  });
  const took = `exit=${run.returncode}, ${seconds(run.elapsed_seconds)}s`;
  if (run.timed_out) {
    say(`  ${BAD()} timed out after ${seconds(run.elapsed_seconds)}s on synthetic payload (timeout=${entry.timeout}s)`);
    return 1;
  }
  if (run.error !== null) {
    say(`  ${BAD()} execution error: ${run.error}`);
    return 1;
  }
  const stdout = run.stdout.trim();
  if (stdout === '') {
    say(`  ${OK()} ran clean with empty stdout (${took}) — hook is observer-only`);
    return 0;
  }
  try {
    JSON.parse(stdout);
  } catch {
    say(`  ${BAD()} stdout was not valid JSON (${took}): ${firstCharacters(stdout, 120)}`);
    return 1;
  }
  say(`  ${OK()} produced valid JSON on synthetic payload (${took})`);
  return 0;
}

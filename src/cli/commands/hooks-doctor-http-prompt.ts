import { firstCharacters } from '../../hooks/first-characters.ts';
import { addressKind } from '../../hooks/http/address-policy.ts';
import { urlRefusal } from '../../hooks/http/post-hook-request.ts';
import { runHttpHook } from '../../hooks/shell/fire-http-hook.ts';
import { runPromptHook } from '../../hooks/shell/fire-prompt-hook.ts';
import { shellHookInput } from '../../hooks/shell/shell-hook-callback.ts';
import type { HooksContext } from './hooks-context.ts';
import { doctorPayload } from './hooks-payloads.ts';
import { BAD, INFO, OK, say, seconds } from './hooks-output.ts';

type Entry = HooksContext['entries'][number];

/** The header a dry-run request carries: the receiver's answer is read, never acted on. */
export const DRY_RUN_HEADER = 'x-hookgate-dry-run';

/**
 * `hookgate hooks doctor` for an http entry (hook-semantics §5.10): is the URL one hookgate
 * may call, is it approved (by URL), and — approved only — does it answer a dry-run payload
 * (`X-Hookgate-Dry-Run: true`, `dry_run: true` in the input) with 2xx and JSON or nothing.
 * The answer is never a decision about a real call. Returns the number of problems.
 *
 * @example
 * problems += await doctorHttpHook(entry, ctx);
 */
export async function doctorHttpHook(entry: Entry, ctx: HooksContext): Promise<number> {
  let problems = 0;
  const url = new URL(entry.command);
  const refused = urlRefusal(url, ctx.http.policy);
  if (refused) {
    say(`  ${BAD()} URL ${refused}`);
    problems++;
  } else {
    say(
      `  ${OK()} URL may be called (${url.protocol === 'https:' ? 'https' : 'plain http, to a loopback or private address only'})`,
    );
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.hostname === 'localhost' || addressKind(host) === 'loopback') {
      say(
        `  ${INFO()} a loopback URL: \`hookgate dev\` calls it; a deployed stack refuses it unless hooks.http_allow_private: true`,
      );
    }
  }
  if (!ctx.http.secret) say(`  ${INFO()} HOOKGATE_HTTP_HOOK_SECRET is not set here: requests go unsigned`);
  const approval = await ctx.allowlist.find(entry.event, entry.command);
  if (approval) say(`  ${OK()} allowlisted (approved ${approval.approved_at || '?'})`);
  else {
    say(
      `  ${BAD()} not allowlisted — this hook will NOT fire at runtime; \`hookgate hooks approve ${entry.event} ${entry.command}\``,
    );
    say(`  ${INFO()} skipped the dry-run ping — not allowlisted yet (approve it first, then re-run doctor)`);
    return problems + 1;
  }
  if (refused) return problems;
  const input = shellHookInput(entry, { ...doctorPayload(entry.event), dry_run: true }).input;
  const run = await runHttpHook(
    entry.command,
    input,
    entry.timeout,
    { headers: { ...entry.headers, [DRY_RUN_HEADER]: 'true' } },
    ctx.http,
  );
  if (run.timed_out) {
    say(`  ${BAD()} no answer within ${entry.timeout}s to a dry-run payload`);
    return problems + 1;
  }
  if (run.error !== null) {
    say(`  ${BAD()} dry-run ping failed: ${run.error}`);
    return problems + 1;
  }
  const body = run.stdout.trim();
  try {
    if (body !== '') JSON.parse(body);
  } catch {
    say(
      `  ${BAD()} answered the dry-run payload with something that is not JSON (${seconds(run.elapsed_seconds)}s): ${firstCharacters(body, 120)}`,
    );
    return problems + 1;
  }
  say(
    `  ${OK()} answered a dry-run payload with 2xx and ${body === '' ? 'an empty body' : 'JSON'} (${seconds(run.elapsed_seconds)}s)`,
  );
  return problems;
}

/**
 * `hookgate hooks doctor` for a prompt entry (hook-semantics §5.10): no approval needed;
 * the model (the configured one, else the stand-in) is asked once about a synthetic payload
 * and must answer the structured decision. Returns the number of problems.
 *
 * @example
 * problems += await doctorPromptHook(entry, ctx);
 */
export async function doctorPromptHook(entry: Entry, ctx: HooksContext): Promise<number> {
  say(`  ${OK()} needs no approval (a prompt hook runs no code; the hook input goes to the model)`);
  say(
    `  ${INFO()} judged by ${ctx.judge ? `the configured model${entry.model ? ` (${entry.model})` : ''}` : 'the local stand-in judge (no HOOKGATE_MODEL_BASE_URL)'}`,
  );
  const input = shellHookInput(entry, { ...doctorPayload(entry.event), dry_run: true }).input;
  const run = await runPromptHook(entry, input, ctx.judge);
  if (run.timed_out) {
    say(`  ${BAD()} the model did not answer within ${entry.timeout}s`);
    return 1;
  }
  if (run.error !== null) {
    say(`  ${BAD()} ${run.error}`);
    return 1;
  }
  say(
    `  ${OK()} the model answered a structured decision on a synthetic payload (${seconds(run.elapsed_seconds)}s): ${run.stdout}`,
  );
  return 0;
}

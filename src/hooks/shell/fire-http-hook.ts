import type { AddressPolicy } from '../http/address-policy.ts';
import { roundSeconds, type ShellRunRecord } from './spawn/run-record.ts';

let requestModule: Promise<typeof import('../http/post-hook-request.ts')> | undefined;

/**
 * The request code loads with the first http hook, not at every cold start: it imports
 * `node:http`, and on Node 22 an ES import of `node:http` builds a module facade that reads the
 * lazy `WebSocket` exports, loading undici (11–15 ms of the gateway's cold start; docs/performance.md#cold-start). Lambda's
 * runtime client requires `node:http` as CommonJS, and the SDK imports only `node:https` for
 * AWS's https endpoints, so nothing else in a function pays it.
 */
function loadRequestModule(): Promise<typeof import('../http/post-hook-request.ts')> {
  requestModule ??= import('../http/post-hook-request.ts').catch((error: unknown) => {
    requestModule = undefined;
    throw error;
  });
  return requestModule;
}

/** What an http hook is called with: where it may go and the signing key. */
export interface HttpHookContext {
  readonly policy: AddressPolicy;
  /** `HOOKGATE_HTTP_HOOK_SECRET`, read when the hook fires. */
  readonly secret?: string;
}

/**
 * Calls an http hook's URL with `input` (the stdin JSON) and reports it as a command's run
 * record, so the command rules decide (hook-semantics §5.10): a 2xx answer is exit 0 with
 * the body as stdout; a non-2xx answer (a redirect included: never followed), a refused
 * address or a connection error is a spawn error (`error`); no answer in time is a timeout.
 *
 * @example
 * const run = await runHttpHook('https://policy.example.com/hook', input, 10, { headers: {} }, { policy, secret });
 */
export async function runHttpHook(
  url: string,
  input: string,
  timeoutSeconds: number,
  entry: { headers?: Readonly<Record<string, string>> },
  context: HttpHookContext,
): Promise<ShellRunRecord> {
  const { postHookRequest } = await loadRequestModule();
  const answer = await postHookRequest(new URL(url), input, {
    timeoutMs: timeoutSeconds * 1000,
    policy: context.policy,
    ...(context.secret ? { secret: context.secret } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
  });
  const base = {
    stdout: '',
    stderr: '',
    timed_out: false,
    error: null,
    stdout_truncated: false,
    stderr_truncated: false,
    elapsed_seconds: roundSeconds(answer.elapsedMs),
  };
  if (answer.kind === 'timed-out') return { ...base, returncode: null, timed_out: true };
  if (answer.kind === 'failed') return { ...base, returncode: null, error: answer.error };
  if (answer.status < 200 || answer.status > 299) {
    const redirect = answer.status >= 300 && answer.status < 400 ? ' (a redirect; hook requests do not follow redirects)' : '';
    return { ...base, returncode: null, error: `HTTP ${answer.status}${redirect}` };
  }
  return { ...base, returncode: 0, stdout: answer.body };
}

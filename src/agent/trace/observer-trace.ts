import { performance } from 'node:perf_hooks';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { redactSecretsDeep } from '../../secrets/redact-secrets.ts';
import { TRACE_DETAIL_CHARS, type TraceRecord, type TraceStore } from '../../store/trace-store.ts';
import { collectHookRuns } from './hook-run-scope.ts';
import { errorText } from '../../errors/error-text.ts';

/** The envelope fields an observer trace needs. */
interface ObservedEvent {
  readonly type: string;
  readonly session_id?: string | null | undefined;
  readonly turn_id?: string | null | undefined;
}

function json(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = String(value);
  }
  return text.length > TRACE_DETAIL_CHARS ? `${text.slice(0, TRACE_DETAIL_CHARS)}…` : text;
}

/**
 * The observer consumer's `around`: runs one event's observers (plugin observers, shell
 * observers, gateway hooks) collecting each callback's run, and appends them to the trace of
 * the turn that emitted the event — so the console's timeline shows that observer-side hooks
 * ran and what they returned. Events without a turn id, or that nothing observed, write
 * nothing. Secrets are redacted as in the turn's own records. A failed write is logged, never fails the event. The engine must record runs
 * (`onRun: recordHookRun`).
 *
 * @example
 * createObserverConsumer({ engine, table, payloads, around: traceObserverRuns(traces, logger) });
 */
export function traceObserverRuns(traces: Pick<TraceStore, 'append'>, logger: HookLogger) {
  return async (event: ObservedEvent, run: () => Promise<void>): Promise<void> => {
    const at = new Date().toISOString();
    const started = performance.now();
    const { runs } = await collectHookRuns(run);
    const turnId = event.turn_id;
    if (!turnId || runs.length === 0) return;
    const records: TraceRecord[] = runs.map((r) => ({
      turn_id: turnId,
      at,
      hook: r.hook,
      source: r.source,
      callback: r.callback,
      ...(r.plugin !== undefined ? { plugin: r.plugin } : {}),
      phase: 'observe',
      decision:
        r.error !== undefined
          ? `error: ${r.error}`
          : r.detail?.skipped !== undefined
            ? `skipped: ${r.detail.skipped}`
            : 'observed (observer side)',
      duration_ms: Math.trunc(r.durationMs),
      result: r.error !== undefined ? json({ error: r.error }) : json(r.result ?? null),
      ...(r.detail?.exit_code !== undefined ? { exit_code: r.detail.exit_code } : {}),
      ...(r.detail?.stdout !== undefined ? { stdout: r.detail.stdout } : {}),
      ...(r.detail?.stderr !== undefined ? { stderr: r.detail.stderr } : {}),
    }));
    try {
      // With the session: the turn's entry in the recent-turns index then lists these runs too
      // (`hookgate trace --list --hook <observer hook>`, `--decision observed`, the error badge).
      await traces.append(redactSecretsDeep(records), event.session_id ?? undefined);
    } catch (error) {
      logger.warn(
        `observer event ${event.type} of ${turnId}: the hook trace could not be stored: ${errorText(error)} (${Math.round(performance.now() - started)} ms)`,
      );
    }
  };
}

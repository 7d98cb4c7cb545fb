import type { CreateHookEngineOptions, LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import type { HookRunRecord } from '../../src/hooks/hook-engine.ts';
import { createEngineFromBundle } from '../../src/hooks/bundled-hooks.ts';

/** The `message` of the one log line per hook run; the stack's dashboard queries it (infra/lib/dashboard.ts). */
export const HOOK_RUN_MESSAGE = 'hook run';

/** `block` when a callback blocked (a plugin's `{action: "block"}`, a shell hook's `{decision: "block"}`), `error` when it failed. */
export function hookRunOutcome(record: HookRunRecord): 'ok' | 'block' | 'error' {
  if (record.error !== undefined) return 'error';
  const result = record.result as { action?: unknown; decision?: unknown } | null | undefined;
  return typeof result === 'object' && result !== null && (result.action === 'block' || result.decision === 'block')
    ? 'block'
    : 'ok';
}

/** The one JSON line of a hook run, on stdout (the function's log). */
export function writeHookRunLine(service: string, record: HookRunRecord): void {
  process.stdout.write(
    `${JSON.stringify({
      level: 'INFO',
      message: HOOK_RUN_MESSAGE,
      service,
      timestamp: new Date().toISOString(),
      hook: record.hook,
      source: record.source,
      callback: record.callback,
      duration_ms: Math.round(record.durationMs * 10) / 10,
      outcome: hookRunOutcome(record),
    })}\n`,
  );
}

/**
 * `createEngineFromBundle` that also writes one JSON line per hook run to the function's log
 * (hook, source, callback, duration, outcome: never kwargs or results), for the per-hook
 * latency, blocks and errors of the dashboard. Logs Insights reads them when the dashboard is
 * opened, so no custom metric is billed per hook. The engine's own `onRun` (traces) still runs.
 *
 * @example
 * const runtime = createRuntime(config, { createEngine: engineWithHookRunLog('hookgate-turn') });
 */
export function engineWithHookRunLog(service: string): (options?: CreateHookEngineOptions) => Promise<LoadedHookEngine> {
  return (options = {}) => {
    const traced = options.onRun;
    return createEngineFromBundle({
      ...options,
      onRun: (record) => {
        traced?.(record);
        writeHookRunLine(service, record);
      },
    });
  };
}

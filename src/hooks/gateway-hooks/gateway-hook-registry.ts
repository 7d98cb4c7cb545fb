import { CallbackDeadlineError, settleWithin } from '../callback-deadline.ts';
import { errorText } from '../../errors/error-text.ts';
import type { HookRunRecord } from '../hook-engine.ts';

/** `handle(eventType, context)`, sync or async (§2). */
export type GatewayHandler = (eventType: string, context: Record<string, unknown>) => unknown;

/** Loaded-hooks metadata (§2.1 step 6). */
export interface GatewayHookInfo {
  readonly name: string;
  readonly description: unknown;
  readonly events: readonly string[];
  /** The hook's directory. */
  readonly path: string;
}

interface Subscription {
  readonly hook: string;
  readonly handle: GatewayHandler;
}

export interface GatewayHookRegistryOptions {
  /** Where `[hooks] ` lines go (default: stdout). */
  print?: (line: string) => void;
  onRun?: ((record: HookRunRecord) => void) | undefined;
  /** Deadline of one handler's promise, in ms (§5.8 `plugins.callback_timeout`); unset = none. */
  callbackTimeoutMs?: number;
  /** Where a missed deadline is reported (default: `print`). */
  warn?: (message: string) => void;
}

/**
 * Gateway event hooks by event type (hook-semantics §2.2–§2.3): exact subscriptions first,
 * then `base:*` (once, even when the emitted type is itself `base:*`), run sequentially on
 * one shared context object, each failure printed and skipped.
 *
 * @example
 * const registry = new GatewayHookRegistry();
 * registry.add({ name: 'log', description: '', events: ['command:*'], path: dir }, handle);
 * await registry.emit('command:reset', { args: '' });
 */
export class GatewayHookRegistry {
  readonly #byEvent = new Map<string, Subscription[]>();
  readonly #loaded: GatewayHookInfo[] = [];
  readonly #print: (line: string) => void;
  readonly #onRun: ((record: HookRunRecord) => void) | undefined;
  readonly #warn: (message: string) => void;
  /** Settable: a forced re-discovery re-reads config.yaml. */
  callbackTimeoutMs: number | undefined;

  constructor(options: GatewayHookRegistryOptions = {}) {
    this.#print = options.print ?? ((line) => process.stdout.write(`${line}\n`));
    this.#onRun = options.onRun;
    this.#warn = options.warn ?? this.#print;
    this.callbackTimeoutMs = options.callbackTimeoutMs;
  }

  /** Registers `handle` under each event, in list order, and records the metadata. */
  add(info: GatewayHookInfo, handle: GatewayHandler): void {
    for (const event of info.events) {
      const list = this.#byEvent.get(event);
      const subscription = { hook: info.name, handle };
      if (list) list.push(subscription);
      else this.#byEvent.set(event, [subscription]);
    }
    this.#loaded.push({ ...info, events: [...info.events] });
  }

  /** The handlers `emit(event)` runs, in order (§2.2). */
  handlersFor(event: string): Subscription[] {
    const exact = this.#byEvent.get(event) ?? [];
    const colon = event.indexOf(':');
    if (colon < 0) return [...exact];
    const wildcard = `${event.slice(0, colon)}:*`;
    if (wildcard === event) return [...exact];
    return [...exact, ...(this.#byEvent.get(wildcard) ?? [])];
  }

  /** A copy of the loaded-hooks metadata; mutating it does not affect the registry. */
  loadedHooks(): GatewayHookInfo[] {
    return this.#loaded.map((info) => ({ ...info, events: [...info.events] }));
  }

  /** Subscribed event keys and hook names per key, for listings. */
  subscriptions(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [event, list] of this.#byEvent) out[event] = list.map((s) => s.hook);
    return out;
  }

  async emit(event: string, context?: Record<string, unknown> | null): Promise<void> {
    await this.#run(event, context, undefined);
  }

  async emitCollect(event: string, context?: Record<string, unknown> | null): Promise<unknown[]> {
    const results: unknown[] = [];
    await this.#run(event, context, results);
    return results;
  }

  async #run(event: string, context: Record<string, unknown> | null | undefined, results: unknown[] | undefined): Promise<void> {
    const handlers = this.handlersFor(event);
    if (handlers.length === 0) return;
    // One shared object: a handler's changes are seen by the handlers after it (§2.3).
    const shared = context ?? {};
    for (const { hook, handle } of handlers) {
      const started = performance.now();
      try {
        let value = handle(event, shared);
        if (value !== null && typeof (value as PromiseLike<unknown> | undefined)?.then === 'function') {
          value =
            this.callbackTimeoutMs === undefined
              ? await value
              : await settleWithin(value as PromiseLike<unknown>, this.callbackTimeoutMs);
        }
        this.#report({ hook: event, source: 'gateway', callback: hook, durationMs: performance.now() - started, result: value });
        if (results && value !== null && value !== undefined) results.push(value);
      } catch (error) {
        const text = errorText(error);
        if (error instanceof CallbackDeadlineError) {
          this.#warn(
            `[hooks] handler of gateway hook ${hook} for '${event}' ${error.message}; counted as failed, the next handler runs and a late result is ignored (plugins.callback_timeout)`,
          );
        } else this.#print(`[hooks] Error in handler for '${event}': ${text}`);
        this.#report({ hook: event, source: 'gateway', callback: hook, durationMs: performance.now() - started, error: text });
      }
    }
  }

  #report(record: HookRunRecord): void {
    try {
      this.#onRun?.(record);
    } catch {
      // Trace recording never changes what a hook does.
    }
  }
}

/** A plugin-hook callback: one kwargs object in, any value (or a promise of one) out. */
export type HookCallback = (kwargs: Record<string, unknown>) => unknown;

/** Where a callback came from; shell callbacks always follow plugin callbacks (§1.2). */
export type CallbackSource = 'plugin' | 'shell';

export interface RegisteredCallback {
  readonly hook: string;
  /** Function name for plugins; `shell_hook[<event>:<command>]` for shell hooks (§1.3). */
  readonly name: string;
  readonly source: CallbackSource;
  /** The plugin that registered it (plugins only). */
  readonly plugin?: string;
  /**
   * A `fail_closed` hook's name in its fail-closed message (its command or URL): a failed run
   * it only shows later — rewritten arguments the tool does not take — blocks (§5.10).
   */
  readonly failClosedAs?: string;
  readonly fn: HookCallback;
}

/**
 * The dispatcher's callback lists, one per hook name, in registration order.
 * Plugin callbacks and shell callbacks live in separate lists so that shell hooks are
 * always after plugins, even when plugins are re-discovered at run time (§1.2, §5.7).
 *
 * @example
 * const registry = new CallbackRegistry();
 * registry.register({ hook: 'pre_tool_call', name: 'guard', source: 'plugin', fn: guard });
 * registry.callbacks('pre_tool_call'); // [guard's entry]
 */
export class CallbackRegistry {
  readonly #plugin = new Map<string, RegisteredCallback[]>();
  readonly #shell = new Map<string, RegisteredCallback[]>();
  /** Merged lists, cached so that the hot path allocates nothing. */
  readonly #merged = new Map<string, readonly RegisteredCallback[]>();

  register(callback: RegisteredCallback): void {
    const lists = callback.source === 'shell' ? this.#shell : this.#plugin;
    const list = lists.get(callback.hook);
    if (list) list.push(callback);
    else lists.set(callback.hook, [callback]);
    this.#merged.delete(callback.hook);
  }

  /** Plugin callbacks then shell callbacks for `hook`, in registration order. */
  callbacks(hook: string): readonly RegisteredCallback[] {
    const cached = this.#merged.get(hook);
    if (cached) return cached;
    const merged = [...(this.#plugin.get(hook) ?? []), ...(this.#shell.get(hook) ?? [])];
    this.#merged.set(hook, merged);
    return merged;
  }

  has(hook: string): boolean {
    return this.callbacks(hook).length > 0;
  }

  /** Hook names with at least one callback. */
  hooks(): string[] {
    return [...new Set([...this.#plugin.keys(), ...this.#shell.keys()])];
  }

  /** Drops every callback of one source (a forced plugin re-discovery clears plugins only). */
  clear(source: CallbackSource): void {
    (source === 'shell' ? this.#shell : this.#plugin).clear();
    this.#merged.clear();
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { AnswerOf, CallableHookName, HookName, KwargsOf, PayloadOf } from '../hooks/catalogue.ts';
import type { HookEngine, Kwargs, ObservedType, PluginCommands } from '../hooks/hook-engine.ts';

/** One engine the holder has held, with what still uses it. */
interface Slot {
  readonly engine: HookEngine;
  /** Calls in progress and pinned work running on this engine. */
  users: number;
  /** Replaced by a newer engine: closed as soon as `users` drops to 0. */
  retired: boolean;
  /** Set once close() was called on the engine: nothing is sent to it any more. */
  closed?: Promise<void>;
  /** Told when the engine was closed (someone waits for it). */
  onClosed?: () => void;
}

/**
 * The hook engine `hookgate dev` hands to the gateway, the turn consumer and the observer
 * consumer: it passes every call to the engine it holds now, and {@link swap} puts a newly
 * built engine in its place at once (hot reload). Work wrapped in {@link pinned} — one webhook
 * request, one batch of a queue — sees one engine from start to end, even if a reload
 * happens meanwhile. A replaced engine is closed when its last call or pinned work is done,
 * never in the middle of one.
 *
 * @example
 * const engine = new EngineHolder(await createHookEngine(options));
 * const handler = (event) => engine.pinned(() => consumer(event)); // one batch, one engine
 * await engine.swap(await createHookEngine(options)).closed;        // the old one, once idle
 */
export class EngineHolder implements HookEngine {
  #current: Slot;
  readonly #pins = new AsyncLocalStorage<Slot>();
  readonly #onCloseError: (error: unknown) => void;

  constructor(engine: HookEngine, options: { onCloseError?: (error: unknown) => void } = {}) {
    this.#current = { engine, users: 0, retired: false };
    this.#onCloseError = options.onCloseError ?? (() => {});
  }

  /** The engine new work goes to. */
  get current(): HookEngine {
    return this.#current.engine;
  }

  /**
   * Makes `engine` the current one. The previous engine finishes what it is running (calls in
   * progress, pinned work) and is then closed; `closed` resolves when that happened.
   */
  swap(engine: HookEngine): { closed: Promise<void> } {
    const old = this.#current;
    this.#current = { engine, users: 0, retired: false };
    return { closed: this.#retire(old) };
  }

  /**
   * Runs `work` with the current engine pinned: every call made through this holder inside
   * it (in its async context) goes to that engine, which stays open until `work` settles.
   */
  async pinned<T>(work: (engine: HookEngine) => Promise<T>): Promise<T> {
    const slot = this.#current;
    slot.users += 1;
    try {
      return await this.#pins.run(slot, () => work(slot.engine));
    } finally {
      this.#release(slot);
    }
  }

  /** `handler` with each call {@link pinned}: one batch of a queue, one engine. */
  pinnedHandler<E, R>(handler: (event: E) => Promise<R>): (event: E) => Promise<R> {
    return (event) => this.pinned(() => handler(event));
  }

  get home(): string | undefined {
    return this.#slot().engine.home;
  }

  get config(): Readonly<Record<string, unknown>> | undefined {
    return this.#slot().engine.config;
  }

  invoke<H extends HookName>(hook: H, kwargs: KwargsOf<H>): Promise<AnswerOf<H>> {
    return this.#call((engine) => engine.invoke(hook, kwargs));
  }

  invokeAll<H extends CallableHookName>(hook: H, kwargs: KwargsOf<H>): Promise<unknown[]> {
    return this.#call((engine) => engine.invokeAll(hook, kwargs));
  }

  emit(event: string, context?: Kwargs | null): Promise<void> {
    return this.#call((engine) => engine.emit(event, context));
  }

  emitCollect(event: string, context?: Kwargs | null): Promise<unknown[]> {
    return this.#call((engine) => engine.emitCollect(event, context));
  }

  hasHook(hook: string): boolean {
    return this.#slot().engine.hasHook(hook);
  }

  observe<T extends ObservedType>(type: T, payload: PayloadOf<T>, meta?: Parameters<HookEngine['observe']>[2]): Promise<void> {
    return this.#call((engine) => engine.observe(type, payload, meta));
  }

  runObservers(type: string, payload: Kwargs): Promise<void> {
    return this.#call((engine) => engine.runObservers(type, payload));
  }

  hasObservers(type: string): boolean {
    return this.#slot().engine.hasObservers(type);
  }

  /** The slash commands of the engine in use (plugin `register_command` follows reloads). */
  get pluginCommands(): PluginCommands | undefined {
    const commands = this.#slot().engine.pluginCommands;
    if (!commands) return undefined;
    return {
      get: (name) => this.#slot().engine.pluginCommands?.get(name),
      list: () => this.#slot().engine.pluginCommands?.list() ?? [],
      // Run on the engine that listed the command, even if a reload happened since.
      run: (name, args, context) => this.#call(() => commands.run(name, args, context)),
    };
  }

  /**
   * Closes the current engine once what runs on it is done (the retired ones close as they
   * become idle). Whoever stops `hookgate dev` bounds the wait.
   */
  close(): Promise<void> {
    return this.#retire(this.#current);
  }

  /** The pinned engine when one is pinned and still open, else the current one. */
  #slot(): Slot {
    const pinned = this.#pins.getStore();
    return pinned && !pinned.closed ? pinned : this.#current;
  }

  async #call<T>(run: (engine: HookEngine) => Promise<T>): Promise<T> {
    const slot = this.#slot();
    slot.users += 1;
    try {
      return await run(slot.engine);
    } finally {
      this.#release(slot);
    }
  }

  /** Marks a slot retired; resolves once its engine was closed (at once when idle). */
  #retire(slot: Slot): Promise<void> {
    if (slot.closed) return slot.closed;
    slot.retired = true;
    const waiting = new Promise<void>((resolve) => {
      const before = slot.onClosed;
      slot.onClosed = () => {
        before?.();
        resolve();
      };
    });
    this.#closeWhenIdle(slot);
    return waiting;
  }

  #release(slot: Slot): void {
    slot.users -= 1;
    this.#closeWhenIdle(slot);
  }

  /** Closes a retired slot's engine once, when nothing uses it any more. */
  #closeWhenIdle(slot: Slot): void {
    if (!slot.retired || slot.users > 0 || slot.closed) return;
    slot.closed = Promise.resolve()
      .then(() => slot.engine.close())
      .catch((error: unknown) => this.#onCloseError(error))
      .then(() => slot.onClosed?.());
  }
}

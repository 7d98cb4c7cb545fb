import { hooksHomeDigest } from './hooks-home-files.ts';
import { watchHooksHome, type HooksHomeWatcher } from './hooks-home-watcher.ts';
import { HooksReloader, type HooksReloaderOptions, type ReloadOutcome } from './hooks-reloader.ts';

/** A running hot reload: its outcomes, and how to stop it. */
export interface HotReload {
  /** The latest attempt's outcome (none yet: undefined). */
  readonly last: ReloadOutcome | undefined;
  /** Told each reload attempt's outcome; returns the unsubscribe function. */
  onOutcome(listener: (outcome: ReloadOutcome) => void): () => void;
  /** The next outcome that satisfies `accept` (what tests wait for; no sleeping). */
  next(accept?: (outcome: ReloadOutcome) => boolean): Promise<ReloadOutcome>;
  /** Stops watching; waits for a reload in progress. */
  stop(): Promise<void>;
}

export interface HotReloadOptions extends HooksReloaderOptions {
  /**
   * The digest of the home's loaded files taken just before the running engine was built
   * (`hooksHomeDigest`): a change made between then and the watcher's start is reloaded.
   */
  baseline: string;
  /** Folders inside the home never watched (the dev state folder). */
  ignore?: readonly string[];
  /** Quiet time that ends a burst of changes (default 200 ms). */
  debounceMs?: number;
  /** Told about watcher failures. */
  onWatchError?: (error: unknown) => void;
}

/**
 * Starts `hookgate dev`'s hot reload for one hooks home: watches its loaded files, and after
 * each burst of changes whose content really differs from what was last loaded (a touch or
 * a save without change does nothing) runs a {@link HooksReloader} attempt.
 *
 * @example
 * const hotReload = await startHotReload({ home, holder, build, output, announce: print, baseline });
 * const outcome = await hotReload.next((o) => o.ok);
 * await hotReload.stop();
 */
export async function startHotReload(options: HotReloadOptions): Promise<HotReload> {
  const reloader = new HooksReloader(options);
  let digest = options.baseline;
  let stopped = false;
  let queue: Promise<unknown> = Promise.resolve();
  const changedSince = new Set<string>();

  const consider = (changed: readonly string[]) => {
    for (const file of changed) changedSince.add(file);
    // One look at a time: the digest read and the reload it may start are not interleaved.
    queue = queue
      .then(async () => {
        if (stopped) return;
        const now = await hooksHomeDigest(options.home);
        if (now === digest) return;
        digest = now;
        const files = [...changedSince].sort();
        changedSince.clear();
        await reloader.reload(files);
      })
      .catch((error: unknown) => options.onWatchError?.(error));
  };

  let watcher: HooksHomeWatcher | undefined = await watchHooksHome({
    home: options.home,
    onChange: consider,
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    ...(options.onWatchError ? { onError: options.onWatchError } : {}),
  });
  // Whatever changed while the engine was built and the watcher started.
  consider([]);

  return {
    get last() {
      return reloader.last;
    },
    onOutcome: (listener) => reloader.onOutcome(listener),
    next: (accept) => reloader.next(accept),
    async stop() {
      stopped = true;
      await watcher?.close();
      watcher = undefined;
      await queue;
    },
  };
}

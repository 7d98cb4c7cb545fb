import { relative, resolve, sep } from 'node:path';
import { watch } from 'chokidar';
import { isLoadedFile, mayHoldLoadedFiles } from './hooks-home-files.ts';

export interface HooksHomeWatcherOptions {
  home: string;
  /** Told the loaded files (relative to the home, `/` separators) that changed in one burst. */
  onChange: (changed: string[]) => void;
  /** A burst of changes ends after this long without another (default 200 ms). */
  debounceMs?: number;
  /** Folders never looked at, even inside the home (`hookgate dev`'s state folder). */
  ignore?: readonly string[];
  /** Told about watcher failures (a folder that cannot be read, too many watches); it goes on. */
  onError?: (error: unknown) => void;
}

export interface HooksHomeWatcher {
  close(): Promise<void>;
}

/**
 * Watches the files of a hooks home that the hook engine loads (see `isLoadedFile`) and
 * reports each burst of changes once, `debounceMs` after the last (an editor's save, a `git
 * checkout` or a copied plugin folder is one burst). chokidar does the watching: it follows
 * atomic saves (write a temporary file, rename it over the old one) and folders created or
 * removed while running, on every platform. Resolves once the initial scan is done.
 *
 * @example
 * const watcher = await watchHooksHome({ home, onChange: (files) => console.log('changed', files) });
 * await watcher.close();
 */
export async function watchHooksHome(options: HooksHomeWatcherOptions): Promise<HooksHomeWatcher> {
  const home = resolve(options.home);
  const ignored = (options.ignore ?? []).map((dir) => resolve(dir));
  const debounceMs = options.debounceMs ?? 200;
  const relativeOf = (path: string) => relative(home, resolve(path)).split(sep).join('/');
  const inIgnored = (path: string) => ignored.some((dir) => path === dir || path.startsWith(`${dir}${sep}`));

  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const changed = [...pending].sort();
    pending = new Set();
    if (changed.length > 0) options.onChange(changed);
  };
  const note = (rel: string) => {
    pending.add(rel);
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const noted = (path: string) => {
    const rel = relativeOf(path);
    if (!inIgnored(resolve(path)) && isLoadedFile(rel)) note(rel);
  };
  // A removed plugin or hook folder (its files may not each be reported).
  const folderGone = (path: string) => {
    const rel = relativeOf(path);
    if (rel !== '' && !inIgnored(resolve(path)) && mayHoldLoadedFiles(rel)) note(`${rel}/`);
  };

  const watcher = watch(home, {
    ignoreInitial: true,
    // Prune what can hold nothing the engine loads: logs/, node_modules/, agent-hooks/, the
    // dev state folder… A file's fate is decided in `noted` (stats are not always known here).
    ignored: (path, stats) => {
      const absolute = resolve(path);
      if (absolute === home) return false;
      if (inIgnored(absolute)) return true;
      const rel = relativeOf(absolute);
      if (rel.startsWith('..')) return true;
      if (stats?.isFile()) return !isLoadedFile(rel);
      return !mayHoldLoadedFiles(rel) && !isLoadedFile(rel);
    },
  });
  watcher.on('add', noted).on('change', noted).on('unlink', noted).on('unlinkDir', folderGone);
  watcher.on('error', (error) => options.onError?.(error));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}

import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodePoints } from '../hooks/code-point-order.ts';
import { ALLOWLIST_FILE_NAME } from '../hooks/shell/consent/file-allowlist-store.ts';

/**
 * Where a hooks home keeps what the engine loads: the plugins and the gateway hooks; and the
 * shell hooks' scripts (`agent-hooks/`), run afresh on every call, yet an edit after approval
 * turns the hook off (hook-semantics §5.5), which the reload then announces.
 */
const CODE_DIRS = new Set(['plugins', 'hooks', 'agent-hooks']);
/** The files at the top of the home the engine reads. */
const TOP_FILES = new Set(['config.yaml', ALLOWLIST_FILE_NAME]);
/**
 * Files under plugins/ and hooks/ that a reload is for: code and manifests. Editors' swap,
 * backup and temporary files (`.x.ts.swp`, `x.ts~`, `#x.ts#`, `x.ts.tmp`, vim's `4913`) do
 * not end so, or are hidden.
 */
const LOADED_EXTENSIONS = /\.(?:ts|mts|cts|tsx|js|mjs|cjs|jsx|ya?ml)$/;
/** Scripts under agent-hooks/ (by convention): shell, Python, Node, Ruby, Perl. */
const SCRIPT_EXTENSIONS = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl)$/;
/** Folders nothing is loaded from (what hooks write, installed packages). */
const SKIPPED_DIRS = new Set(['node_modules', 'logs']);

/** A path relative to the home, with `/` separators. */
function segmentsOf(relativePath: string): string[] {
  return relativePath.split(/[\\/]/).filter((s) => s !== '');
}

/**
 * True for a folder of the hooks home that may hold a file the engine loads (so the watcher
 * descends into it): the home itself, `plugins/` and `hooks/` and the folders under them,
 * except hidden ones, `node_modules/` and `logs/`.
 *
 * @example
 * mayHoldLoadedFiles('plugins/audit');   // true
 * mayHoldLoadedFiles('logs');            // false
 */
export function mayHoldLoadedFiles(relativeDir: string): boolean {
  const segments = segmentsOf(relativeDir);
  if (segments.length === 0) return true;
  if (!CODE_DIRS.has(segments[0]!)) return false;
  return segments.every((s) => !s.startsWith('.') && !SKIPPED_DIRS.has(s));
}

/**
 * True for a file whose change `hookgate dev` reloads the hooks for: `config.yaml`, the
 * shell-hook allowlist, code or manifests under `plugins/` and `hooks/`, and scripts under
 * `agent-hooks/` (not hidden
 * files, editors' temporary files, `node_modules/` or `logs/`). What hooks write as data —
 * logs, JSON, text — never is one, so a hook cannot set off reloads by running.
 *
 * @example
 * isLoadedFile('plugins/audit/index.ts');          // true
 * isLoadedFile('plugins/audit/.index.ts.swp');     // false
 * isLoadedFile('shell-hooks-allowlist.json.lock'); // false
 */
export function isLoadedFile(relativePath: string): boolean {
  const segments = segmentsOf(relativePath);
  if (segments.length === 1) return TOP_FILES.has(segments[0]!);
  const name = segments.at(-1)!;
  if (name.startsWith('.') || !(segments[0] === 'agent-hooks' ? SCRIPT_EXTENSIONS : LOADED_EXTENSIONS).test(name)) return false;
  return mayHoldLoadedFiles(segments.slice(0, -1).join('/'));
}

/**
 * A digest of every loaded file of the home ({@link isLoadedFile}): path and content. Two
 * equal digests mean the engine would load the same thing, so a save that changed nothing
 * (or a touch) does not reload. Symlinked folders are followed, once each.
 *
 * @example
 * const before = await hooksHomeDigest(home);
 * // …edit plugins/audit/index.ts…
 * (await hooksHomeDigest(home)) !== before; // true
 */
export async function hooksHomeDigest(home: string): Promise<string> {
  const hash = createHash('sha256');
  const seen = new Set<string>();
  const visit = async (relativeDir: string): Promise<void> => {
    const dir = join(home, relativeDir);
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => compareCodePoints(a.name, b.name))) {
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const isDir =
        entry.isDirectory() ||
        (entry.isSymbolicLink() &&
          (await stat(join(dir, entry.name)).then(
            (s) => s.isDirectory(),
            () => false,
          )));
      if (isDir) {
        if (mayHoldLoadedFiles(relative)) await visit(relative);
        continue;
      }
      if (!isLoadedFile(relative)) continue;
      const content = await readFile(join(dir, entry.name)).catch(() => undefined);
      // A file that vanished between listing and reading counts as absent.
      if (content === undefined) continue;
      hash.update(`${relative}\0${content.length}\0`).update(content);
    }
  };
  await visit('');
  return hash.digest('hex');
}

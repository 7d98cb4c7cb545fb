import { pathToFileURL } from 'node:url';

/** A module namespace as `import()` returns it. */
export type ModuleNamespace = Record<string, unknown>;

/** Imports one entry module by absolute path. */
export type EntryImporter = (absolutePath: string) => Promise<ModuleNamespace>;

/**
 * An importer for hook authors' entry modules, for one discovery pass: `.ts` through tsx
 * (no build step for plugin authors), `.js` / `.mjs` through Node's own `import()`. All `.ts`
 * entries of the pass share one tsx namespace (one loader registration, instead of one per
 * module as `tsImport` does); a new pass gets a new namespace, so a forced re-discovery sees
 * edited files (a .js / .mjs entry imported before in this process, too: see below), and
 * the files they import when those are ES modules (`.mjs`/`.mts`, or a package.json with
 * `"type": "module"` above them). In a CommonJS scope tsx compiles `.ts` to CommonJS, and Node
 * keeps the first copy of a `.ts` file such an entry imports until the process ends. Only
 * used at discovery, never on the invoke path.
 *
 * @example
 * const importEntry = createEntryImporter();
 * const mod = await importEntry('/home/me/.hermes/plugins/audit/index.ts');
 */
export function createEntryImporter(): EntryImporter {
  let scoped: Promise<(specifier: string, parent: string) => Promise<unknown>> | undefined;
  return async (absolutePath) => {
    const url = pathToFileURL(absolutePath).href;
    // A .js / .mjs entry goes through Node's own import() the first time. Imported again (a
    // forced re-discovery, `hookgate dev`'s hot reload), Node's module cache would hand back
    // the old code, with the files it imports: it goes through this pass's tsx namespace
    // instead, which reads it and everything it imports anew.
    if (!absolutePath.endsWith('.ts') && !importedPlain.has(absolutePath)) {
      importedPlain.add(absolutePath);
      try {
        return (await import(url)) as ModuleNamespace;
      } catch (error) {
        // Node 20 under the CLI's global tsx loader: a `.js` entry written with `export` and no
        // `"type": "module"` above it is handed to require(), which refuses an ES module it is
        // itself importing. tsx's own import (below) reads it as the ES module it is.
        if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_CYCLE_MODULE') throw error;
      }
    }
    // Imported lazily: a Lambda bundle never loads from disk and does not ship tsx.
    scoped ??= import('tsx/esm/api').then(({ register }) => {
      const api = register({ namespace: `hookgate-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}` });
      return api.import;
    });
    return (await (
      await scoped
    )(url, import.meta.url)) as ModuleNamespace;
  };
}

/** The .js / .mjs entries this process imported with a plain import() (cached by Node from then on). */
const importedPlain = new Set<string>();

/**
 * Imports a single entry module (a one-off importer).
 *
 * @example
 * const mod = await importEntryModule('/home/me/.hermes/plugins/audit/index.ts');
 */
export function importEntryModule(absolutePath: string): Promise<ModuleNamespace> {
  return createEntryImporter()(absolutePath);
}

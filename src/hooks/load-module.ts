import { pathToFileURL } from 'node:url';

/** A module namespace as `import()` returns it. */
export type ModuleNamespace = Record<string, unknown>;

/**
 * Imports a hook author's entry module at run time: `.ts` through tsx (no build step for
 * plugin authors), `.js` / `.mjs` through Node's own `import()`. Only used at discovery,
 * never on the invoke path.
 *
 * @example
 * const mod = await importEntryModule('/home/me/.hermes/plugins/audit/index.ts');
 */
export async function importEntryModule(absolutePath: string): Promise<ModuleNamespace> {
  const url = pathToFileURL(absolutePath).href;
  if (absolutePath.endsWith('.ts')) {
    // Imported lazily: a Lambda bundle never loads from disk and does not ship tsx.
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(url, import.meta.url)) as ModuleNamespace;
  }
  return (await import(url)) as ModuleNamespace;
}

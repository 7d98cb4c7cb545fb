import { join } from 'node:path';
import { createEntryImporter, type ModuleNamespace } from './load-module.ts';
import { HookgateError } from '../errors/hookgate-error.ts';

/** An entry module that the static module list does not contain (a stale bundle). */
export class ModuleNotBundledError extends HookgateError {
  override readonly name = 'ModuleNotBundledError';
}

/**
 * Where entry modules come from (one source per discovery pass): the static list of already-imported modules (the Lambda
 * bundle) when one is given, else the disk under the hooks home. Keys of `modules` may be
 * the entry path relative to the home (`plugins/audit/index.ts`), the directory key
 * (`plugins/audit`, `hooks/log`) or the absolute path.
 */
export type ModuleSource = (relativePath: string) => Promise<ModuleNamespace>;

/**
 * @example
 * const load = moduleSource(home, { 'plugins/audit/index.ts': auditModule });
 * await load('plugins/audit/index.ts'); // auditModule, no import()
 */
export function moduleSource(home: string, modules?: Readonly<Record<string, unknown>>): ModuleSource {
  if (!modules) {
    const importEntry = createEntryImporter();
    return (relativePath) => importEntry(join(home, relativePath));
  }
  return async (relativePath) => {
    const dirKey = relativePath.slice(0, relativePath.lastIndexOf('/'));
    const candidates = [relativePath, dirKey, join(home, relativePath)];
    for (const key of candidates) {
      const found = modules[key];
      if (typeof found === 'object' && found !== null) return found as ModuleNamespace;
    }
    throw new ModuleNotBundledError(`${relativePath} is not in the static module list (rebuild the bundle)`);
  };
}

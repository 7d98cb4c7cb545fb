import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseYaml } from './parse-yaml.ts';
import { isPlainObject } from './python-truthiness.ts';
import { errorText } from '../errors/error-text.ts';

export interface HooksConfigFile {
  /** `<home>/config.yaml`. */
  readonly path: string;
  /** The parsed top-level mapping; `{}` when missing, empty, unparseable or not a mapping. */
  readonly config: Record<string, unknown>;
  /** Why the file was treated as empty, when it was present but unusable. */
  readonly warning?: string;
}

/**
 * Reads `<home>/config.yaml` (hook-semantics §0.1): a missing file is an empty mapping,
 * one that cannot be parsed is treated as empty with a warning. Never throws.
 */
export async function readHooksConfig(home: string): Promise<HooksConfigFile> {
  const path = join(home, 'config.yaml');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path, config: {} };
    return { path, config: {}, warning: `cannot read ${path}: ${errorText(error)}; treating it as empty` };
  }
  try {
    const value = await parseYaml(text);
    if (value === null || value === undefined) return { path, config: {} };
    if (!isPlainObject(value)) return { path, config: {}, warning: `${path} is not a mapping; treating it as empty` };
    return { path, config: value };
  } catch (error) {
    return { path, config: {}, warning: `cannot parse ${path}: ${errorText(error)}; treating it as empty` };
  }
}

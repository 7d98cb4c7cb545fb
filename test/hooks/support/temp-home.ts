import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A hooks home written to a temp directory from `{ relativePath: content }`. */
export interface TempHome {
  readonly path: string;
  write(files: Record<string, string>): Promise<void>;
  remove(): Promise<void>;
}

/**
 * @example
 * const home = await tempHome({ 'config.yaml': 'plugins:\n  enabled: [a]\n', 'plugins/a/plugin.yaml': 'name: a\n' });
 */
export async function tempHome(files: Record<string, string> = {}): Promise<TempHome> {
  const path = await mkdtemp(join(tmpdir(), 'hookgate-home-'));
  // Searchable (not listable) by others: a tool sandbox run as "nobody" (tests run as root) reaches `<home>/workspaces`.
  await chmod(path, 0o711);
  const write = async (more: Record<string, string>) => {
    for (const [relative, content] of Object.entries(more)) {
      const target = join(path, relative);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  };
  await write(files);
  return { path, write, remove: () => rm(path, { recursive: true, force: true }) };
}

/** config.yaml enabling the given plugins. */
export function enable(...names: string[]): string {
  return `plugins:\n  enabled: [${names.map((n) => JSON.stringify(n)).join(', ')}]\n`;
}

/** A plugin directory: manifest + TypeScript entry whose body is `register`'s body. */
export function plugin(dir: string, registerBody: string, manifest = `name: ${dir}\n`): Record<string, string> {
  return {
    [`plugins/${dir}/plugin.yaml`]: manifest,
    [`plugins/${dir}/index.ts`]: `export async function register(ctx: any): Promise<void> {\n${registerBody}\n}\n`,
  };
}

/**
 * The start of a `plugin()` register body whose hooks write files into their own hooks home: `appendFileSync`,
 * `existsSync`, `readFileSync`, `join` and `home` (the hooks home's path) in scope.
 *
 * @example
 * plugin('seen', `${PLUGIN_HOME_PRELUDE}ctx.register_hook('pre_llm_call', (k: any) => appendFileSync(join(home, 'seen.log'), k.session_id));`)
 */
export const PLUGIN_HOME_PRELUDE = `
  const { appendFileSync, existsSync, readFileSync } = await import('node:fs');
  const { join, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const home = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
`;

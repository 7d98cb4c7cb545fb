import type { aws_lambda_nodejs as nodejs } from 'aws-cdk-lib';
import type { BuildOptions } from 'esbuild';
import { HookgateError } from '../../src/errors/hookgate-error.ts';

/** A NodejsFunction bundling option has no esbuild translation here. */
export class UntranslatedBundlingOptionError extends HookgateError {
  override readonly name = 'UntranslatedBundlingOptionError';
}

/**
 * The esbuild build options that NodejsFunction `bundling` props stand for, so that a build run
 * outside CDK (the code-split build of function-bundling.ts, the cold-import bench) is the same
 * build. Only what the stack uses is translated; anything else fails rather than being dropped.
 *
 * @example
 * const options = esbuildOptionsOf(functionBundling({ repoRoot, functionName: 'gateway' }).bundling);
 * await build({ ...options, entryPoints: { index: entry }, outdir, splitting: true });
 */
export function esbuildOptionsOf(bundling: nodejs.BundlingOptions): BuildOptions {
  const alias: Record<string, string> = {};
  for (const [flag, value] of Object.entries(bundling.esbuildArgs ?? {})) {
    if (flag.startsWith('--alias:') && typeof value === 'string') alias[flag.slice('--alias:'.length)] = value;
    else throw new UntranslatedBundlingOptionError(`esbuild argument ${flag} is not translated; add it to esbuild-options.ts`);
  }
  return {
    bundle: true,
    platform: 'node',
    format: bundling.format === 'esm' ? 'esm' : 'cjs',
    target: bundling.target ?? 'node22',
    minify: bundling.minify ?? false,
    keepNames: bundling.keepNames ?? false,
    sourcemap: bundling.sourceMap ? ((bundling.sourceMapMode as BuildOptions['sourcemap']) ?? 'linked') : false,
    sourcesContent: bundling.sourcesContent ?? true,
    ...(bundling.mainFields ? { mainFields: bundling.mainFields } : {}),
    ...(bundling.banner ? { banner: { js: bundling.banner } } : {}),
    ...(bundling.define ? { define: bundling.define } : {}),
    external: [...(bundling.externalModules ?? [])],
    alias,
    logLevel: 'error',
  };
}

/**
 * A setup file (vitest.config.ts): loads esbuild before any test file runs. esbuild takes
 * `process.cwd()` when it is first loaded and starts its service process there on first use.
 * Files share a worker (`isolate: false`) and some run the CLI in-process inside a temporary
 * hooks home (test/support/run-cli.ts), which is removed afterwards: had esbuild first loaded
 * then (tsx loads it to compile a plugin), every later build in that worker would fail to
 * spawn (`ENOENT`). Loaded here, its directory is the repository root, which outlives the run.
 *
 * Before each file it also checks that the service still answers. Once its process has gone,
 * esbuild keeps answering "The service is no longer running" to every later call in that
 * worker, and every `.ts` plugin or hook the files after it load (through tsx) fails to load.
 * A Node 20 run of `npm test` saw that once (5 Dec 2026: test/local/hot-reload.test.ts, all ten
 * tests, `write EPIPE`); which earlier file ended the service was not found in ten more runs. So
 * a dead service is said on stderr, naming the file about to run, and started afresh
 * (`esbuild.stop()` forgets it; the next call spawns a new one).
 */
import { beforeAll, expect } from 'vitest';

const esbuild = await import('esbuild');

beforeAll(async () => {
  try {
    await esbuild.transform('', { loader: 'ts' });
  } catch (error) {
    if (!/The service (is no longer running|was stopped)/.test(String(error))) throw error;
    process.stderr.write(
      `esbuild's service had stopped before ${expect.getState().testPath ?? 'this file'} (${String(error)}); starting a new one\n`,
    );
    await esbuild.stop();
  }
});

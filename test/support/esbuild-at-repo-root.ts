/**
 * A setup file (vitest.config.ts): loads esbuild before any test file runs. esbuild takes
 * `process.cwd()` when it is first loaded and starts its service process there on first use.
 * Files share a worker (`isolate: false`) and some run the CLI in-process inside a temporary
 * hooks home (test/support/run-cli.ts), which is removed afterwards: had esbuild first loaded
 * then (tsx loads it to compile a plugin), every later build in that worker would fail to
 * spawn (`ENOENT`). Loaded here, its directory is the repository root, which outlives the run.
 */
await import('esbuild');

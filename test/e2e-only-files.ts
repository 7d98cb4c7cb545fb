/**
 * The slow end-to-end test files, in one place: each starts the real `hookgate dev` (or the
 * chat REPL, or chromium) as a child process through tsx, which costs seconds per start on a
 * 2-core machine. `npm test` (vitest.config.ts) leaves them out; `npm run test:e2e`
 * (vitest.e2e.config.ts) runs exactly these, and `.ci/run` runs it after `npm test` on Node 22.
 * A new test file that spawns `hookgate dev` belongs here: add its path or a glob.
 *
 * @example
 * export default defineConfig({ test: { include: [...E2E_ONLY_FILES] } });
 */
export const E2E_ONLY_FILES: readonly string[] = [
  // Real `hookgate dev` / `hookgate chat` children, browsers, the sandbox attack suite.
  'test/e2e/**/*.test.ts',
  // The examples' hooks through a real `hookgate dev` child (test/examples/support/examples-dev.ts).
  'test/examples/**/*.test.ts',
];

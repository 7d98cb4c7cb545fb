import { configDefaults, defineConfig } from 'vitest/config';
import { E2E_ONLY_FILES } from './test/e2e-only-files.ts';
import { ISOLATED_FILES } from './test/isolated-files.ts';

const INCLUDE = ['test/**/*.test.ts', 'src/**/*.test.ts'];
// The slow end-to-end files run with `npm run test:e2e` (vitest.e2e.config.ts).
const EXCLUDE = [...configDefaults.exclude, ...E2E_ONLY_FILES];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // esbuild's working directory is fixed when it loads: the repository root, not a test's temporary home.
    // Then: no table request a deployed role would refuse (test/support/table-grants.ts), even one the code caught.
    setupFiles: ['test/support/esbuild-at-repo-root.ts', 'test/support/no-refused-requests.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: child processes and emulators in every file; keep the pool small.
    maxWorkers: 2,
    // hookgate dev keeps no state folder in tests unless a test asks (--state): files run side by side.
    // Warnings and errors only, unless a test sets its own level: the runs' info lines are not the tests' output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOOKGATE_DEV_STATE: 'memory', HOOKGATE_LOG_LEVEL: 'warn' },
    projects: [
      // Most files share their worker's loaded modules (no re-import per file); see test/isolated-files.ts.
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: [...EXCLUDE, ...ISOLATED_FILES], isolate: false } },
      { extends: true, test: { name: 'isolated', include: [...ISOLATED_FILES], exclude: EXCLUDE, isolate: true } },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import { E2E_ONLY_FILES } from './test/e2e-only-files.ts';

/**
 * `npm run test:e2e`: the slow end-to-end files listed in test/e2e-only-files.ts (real
 * `hookgate dev` children, chromium), left out of `npm test`. Each file isolated: they start
 * processes, browsers and servers of their own.
 */
export default defineConfig({
  test: {
    include: [...E2E_ONLY_FILES],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: every file runs child processes; two at a time at most.
    maxWorkers: 2,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOOKGATE_DEV_STATE: 'memory', HOOKGATE_LOG_LEVEL: 'warn' },
  },
});

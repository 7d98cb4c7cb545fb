import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault suite (docs/reliability.md) against the real `hookgate
 * dev`. Separate from `npm test` (its files end in `.fault.ts`); one file at a time, since
 * each case loads the machine on purpose.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.fault.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
    // The memory figures compare heaps after a full collection.
    execArgv: ['--expose-gc'],
    reporters: ['default', './test/faults/support/fault-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});

#!/usr/bin/env node
// `npm run test:faults [-- --quick] [vitest args]`: --quick sets HOOKGATE_FAULTS_QUICK=1 (the
// smaller sizes CI runs); everything else goes to vitest.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const rest = args.filter((a) => a !== '--quick');
const result = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.faults.config.ts', ...rest], {
  stdio: 'inherit',
  env: { ...process.env, ...(quick ? { HOOKGATE_FAULTS_QUICK: '1' } : {}) },
});
process.exit(result.status ?? 1);

#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npx hookgate` works without a build step
// (hook authors' .ts plugins and handlers load through the same loader).
import { register } from 'tsx/esm/api';

register();
const { runCliProcess } = await import('../src/cli/main.ts');
process.exitCode = await runCliProcess(process.argv.slice(2));

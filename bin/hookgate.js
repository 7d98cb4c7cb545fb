#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npx hookgate` works without a build step
// (hook authors' .ts plugins and handlers load through the same loader).
import { register } from 'tsx/esm/api';

// The AWS SDK warns on Node 20 that *future* SDK releases will need Node 22; the versions in
// the lockfile run on Node 20, which `engines` still promises. On every command it would bury
// the output, so it is off unless the caller set the variable (docs/performance.md § Node versions).
// Only where the notice exists: the variable reaches every hook's environment, which §3.5 wants unchanged.
if (Number(process.versions.node.split('.')[0]) < 22) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { runCliProcess } = await import('../src/cli/main.ts');
process.exitCode = await runCliProcess(process.argv.slice(2));

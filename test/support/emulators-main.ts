import { startEmulators, type StartEmulatorsOptions } from '../../src/local/emulators.ts';

/**
 * Child-process entry of `startEmulatorsProcess`: starts the emulators with the options
 * given as JSON in argv[2], prints their `LocalAws` as one JSON line, and stops them when
 * stdin closes (the parent went away) or on SIGTERM.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as StartEmulatorsOptions;
const aws = await startEmulators(options);
const { stop, ...endpoints } = aws;
process.stdout.write(`${JSON.stringify(endpoints)}\n`);
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await stop();
  process.exit(0);
};
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);

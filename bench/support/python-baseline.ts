import { spawn } from 'node:child_process';

/**
 * A long-lived `python3 -c <program> <arg>` child for a same-run baseline: each `sample()`
 * writes one `go` line and resolves with the number the program prints back on its own line
 * (its timing of one round). Rejects if python3 cannot be started.
 *
 * @example
 * const python = startPythonBaseline(PROGRAM, '1000');
 * const us = await python.sample();
 * python.stop();
 */
export function startPythonBaseline(program: string, arg: string): { sample: () => Promise<number>; stop: () => void } {
  const child = spawn('python3', ['-c', program, arg], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  const waiting: ((value: number) => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      waiting.shift()?.(Number(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  const failed = new Promise<never>((_, reject) =>
    child.on('error', (e) => reject(new Error(`python3 is needed for the baseline: ${e.message}`))),
  );
  return {
    sample: () =>
      Promise.race([
        new Promise<number>((resolve) => {
          waiting.push(resolve);
          child.stdin.write('go\n');
        }),
        failed,
      ]),
    stop: () => child.kill(),
  };
}

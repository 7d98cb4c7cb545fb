import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/run-node.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an ES module script in a fresh Node (the listeners under test are the process's own), with tsx for the sources. */
function runScript(script: string, env: NodeJS.ProcessEnv = {}) {
  return runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    env: { PATH: process.env.PATH, ...env },
  });
}

/** Work left behind by two hooks that fails later, then a fault of hookgate's own: the script's common part. */
const STRAY_WORK = `
  import { EventEmitter } from 'node:events';
  const { runAsHookCode } = await import('./src/hooks/hook-code.ts');
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const guard = { kind: 'plugin', name: 'guard' };
  const audit = { kind: 'gateway hook', name: 'audit' };
  const run = () => {
    runAsHookCode(guard, () => void setTimeout(() => { throw new Error('a timer of guard threw, key sk-strayTimerSecret0123456789'); }, 1));
    runAsHookCode(audit, () => {
      const emitter = new EventEmitter();
      setImmediate(() => emitter.emit('error', new Error('an error event nobody listened for')));
    });
    runAsHookCode(guard, () => void Promise.reject(new Error('rejected in guard')));
    // Node runs a microtask's uncaught throw with no async context: caught where it runs.
    runAsHookCode(audit, () => queueMicrotask(() => { throw new Error('a microtask of audit threw'); }));
  };
  const thenHookgateFails = async () => {
    await sleep(100);
    console.log('still serving');
    setTimeout(() => { throw new Error('a fault of hookgate itself'); });
    await sleep(2000);
    console.log('not reached');
  };
`;

const lines = (stdout: string) => stdout.trim().split('\n');

describe('keepServingAfterHookErrors', () => {
  it("goes on after a hook's left-behind throw or rejection, naming the hook, and ends as Node would on hookgate's own", async () => {
    const { code, stdout, stderr } = await runScript(`
      ${STRAY_WORK}
      const { keepServingAfterHookErrors } = await import('./src/hooks/stray-hook-errors.ts');
      keepServingAfterHookErrors({ report: (stray) => console.log(JSON.stringify(stray)) });
      run();
      Promise.reject(new Error('rejected outside any hook'));
      await thenHookgateFails();
    `);
    // Node's own ending: exit status 1, the error on stderr, nothing after it.
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('Error: a fault of hookgate itself');
    const out = lines(stdout);
    expect(out.at(-1)).toBe('still serving');
    const reports = out.slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(reports).toHaveLength(5);
    expect(reports).toEqual(
      expect.arrayContaining([
        {
          kind: 'exception',
          reason: expect.stringContaining('a timer of guard threw'),
          owner: { kind: 'plugin', name: 'guard' },
        },
        {
          kind: 'exception',
          reason: expect.stringContaining('an error event nobody listened for'),
          owner: { kind: 'gateway hook', name: 'audit' },
        },
        { kind: 'rejection', reason: 'rejected in guard', owner: { kind: 'plugin', name: 'guard' } },
        { kind: 'rejection', reason: 'rejected outside any hook' },
        { kind: 'exception', reason: 'a microtask of audit threw', owner: { kind: 'gateway hook', name: 'audit' } },
      ]),
    );
    // The reason is a hook's text: redacted as any hook output in a log line.
    expect(stdout).not.toContain('sk-strayTimerSecret0123456789');
  });

  it('stops listening when asked: the next uncaught exception ends the process', async () => {
    const { code, stderr } = await runScript(`
      ${STRAY_WORK}
      const { keepServingAfterHookErrors } = await import('./src/hooks/stray-hook-errors.ts');
      keepServingAfterHookErrors({ report: () => console.log('reported') })();
      runAsHookCode(guard, () => void setTimeout(() => { throw new Error('unheard'); }, 1));
      await sleep(1000);
    `);
    expect(code).toBe(1);
    expect(stderr).toContain('Error: unheard');
    // queueMicrotask is Node's own again.
    const { stdout } = await runScript(`
      const before = queueMicrotask;
      const { keepServingAfterHookErrors } = await import('./src/hooks/stray-hook-errors.ts');
      const stop = keepServingAfterHookErrors({ report: () => {} });
      console.log(queueMicrotask === before, (stop(), queueMicrotask === before));
    `);
    expect(stdout.trim()).toBe('false true');
  });
});

describe('keepServingAfterStrayHookErrors (the functions, under Lambda’s runtime)', () => {
  it("writes one ERROR line per hook's stray failure and leaves hookgate's own exception to the runtime, which ends the instance", async () => {
    const { code, stdout, stderr } = await runScript(
      `
      // What Lambda's Node.js runtime does: it listens before it loads the function and ends the process.
      process.on('unhandledRejection', () => { console.log('runtime: exit 128'); process.exit(128); });
      process.on('uncaughtException', (error) => { console.log('runtime: exit 129, ' + error.message); process.exit(129); });
      ${STRAY_WORK}
      const { keepServingAfterStrayHookErrors } = await import('./functions/support/stray-hook-errors.ts');
      keepServingAfterStrayHookErrors('hookgate-test');
      run();
      await thenHookgateFails();
    `,
      { AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' },
    );
    expect(code, stderr).toBe(129);
    const out = lines(stdout);
    expect(out.slice(-2)).toEqual(['still serving', 'runtime: exit 129, a fault of hookgate itself']);
    const logged = out.slice(0, -2).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'ERROR',
          event: 'stray_exception',
          service: 'hookgate-test',
          hook: 'plugin guard',
          reason: expect.stringContaining('a timer of guard threw'),
        }),
        expect.objectContaining({ event: 'stray_exception', hook: 'gateway hook audit' }),
        expect.objectContaining({ event: 'stray_rejection', hook: 'plugin guard', reason: 'rejected in guard' }),
        expect.objectContaining({ event: 'stray_exception', hook: 'gateway hook audit', reason: 'a microtask of audit threw' }),
      ]),
    );
    expect(logged).toHaveLength(4);
    expect(stdout).not.toContain('sk-strayTimerSecret0123456789');
  });
});

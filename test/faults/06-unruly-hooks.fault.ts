import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plugin } from '../hooks/support/temp-home.ts';
import { scanTable } from '../support/scan-table.ts';
import { faultLine, size, until } from './support/fault-line.ts';
import { chatMessage, post, startFaultDev, type FaultDev } from './support/fault-dev.ts';

/**
 * Fault 6: hooks that misbehave every way on every turn — plugin callbacks that throw, never
 * settle (plugins.callback_timeout 0.5 s), or return values JSON cannot carry (a cycle, a
 * bigint); shell hooks that print binary garbage, print 50 MB, exit non-zero, or hang past
 * their 1 s timeout. Every turn still answers; the log and the stored trace name each hook;
 * the heap after a full collection stays bounded.
 */
const TURNS = size(8, 3);
const SHELL = { garbage: 'garbage.sh', huge: 'huge.sh', failing: 'fail.sh', hanging: 'hang.sh' } as const;
let fd: FaultDev;

beforeAll(async () => {
  fd = await startFaultDev({
    acceptHooks: true,
    executables: Object.values(SHELL).map((f) => `agent-hooks/${f}`),
    files: (home) => ({
      'config.yaml': [
        'plugins:',
        '  enabled: [unruly]',
        '  callback_timeout: 0.5',
        'hooks:',
        '  pre_llm_call:',
        ...Object.values(SHELL).map(
          (f) => `    - command: ${JSON.stringify(`${home}/agent-hooks/${f}`)}\n      timeout: ${f === SHELL.hanging ? 1 : 60}`,
        ),
        '',
      ].join('\n'),
      'agent-hooks/garbage.sh': '#!/bin/sh\ncat >/dev/null\nhead -c 4096 /dev/urandom\nexit 0\n',
      'agent-hooks/huge.sh': "#!/bin/sh\ncat >/dev/null\nhead -c 52428800 /dev/zero | tr '\\000' x\n",
      'agent-hooks/fail.sh': '#!/bin/sh\ncat >/dev/null\necho "fail.sh: something broke" >&2\nexit 3\n',
      'agent-hooks/hang.sh': '#!/bin/sh\ncat >/dev/null\nsleep 60\n',
      ...plugin(
        'unruly',
        `
        ctx.register_hook('pre_llm_call', function throws_hook() { throw new Error('thrown on purpose'); });
        ctx.register_hook('pre_llm_call', function never_settles_hook() { return new Promise(() => {}); });
        ctx.register_hook('pre_llm_call', function cyclic_hook() { const o: any = { context: 'c' }; o.self = o; return o; });
        ctx.register_hook('pre_llm_call', function bigint_hook() { return { context: 10n }; });
        ctx.register_hook('transform_llm_output', function transform_cycle_hook() { const o: any = {}; o.o = o; return o; });
        ctx.register_hook('post_llm_call', function post_bigint_hook() { return 1n; });`,
      ),
    }),
  });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

function heap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

describe('fault 6: unruly hooks', () => {
  it('every turn completes; log and trace name each hook; memory bounded', async (ctx) => {
    // One warm-up turn (engine, clients, JIT), then the measured ones.
    const warm = chatMessage(fd, 'local', 'unruly0', 0, 'warm up');
    expect(await post(fd, warm)).toBe(202);
    await until(warm.replies, (r) => r.length === 1);
    const before = heap();
    const answered: string[] = [];
    for (let i = 1; i <= TURNS; i++) {
      const message = chatMessage(fd, i % 2 ? 'local' : 'telegram', `unruly${i}`, 600 + i, `turn ${i}`);
      expect(await post(fd, message)).toBe(message.platform === 'local' ? 202 : 200);
      const [reply] = await until(message.replies, (r) => r.length >= 1);
      answered.push(reply!);
    }
    const after = heap();

    const log = fd.logger.lines.map((l) => l.message).join('\n');
    const items = await scanTable(fd.dev.aws);
    const traces = JSON.stringify(items.filter((item) => JSON.stringify(item).includes('TRACE#')));
    const names = ['throws_hook', 'never_settles_hook', 'cyclic_hook', 'bigint_hook', ...Object.values(SHELL)];
    // The ones that fail (a cycle or a bigint is a value, not a failure: the trace records it).
    const failing = ['throws_hook', 'never_settles_hook', ...Object.values(SHELL)];
    const inLog = failing.filter((n) => log.includes(n));
    const inTrace = names.filter((n) => traces.includes(n));
    const growth = (after - before) / before;
    faultLine(
      ctx,
      `fault 6 unruly-hooks: ${TURNS} turns x ${names.length} misbehaving hooks (throw, never settle, cycle, bigint, garbage, 50 MB, exit 3, hang past 1 s) + 2 on other hooks, ${answered.filter((r) => r.startsWith('You said:')).length}/${TURNS} answered, log names ${inLog.length}/${failing.length} failing, trace names ${inTrace.length}/${names.length}, heap ${growth >= 0 ? '+' : ''}${Math.round(growth * 100)}% after`,
    );
    expect(answered).toEqual(Array.from({ length: TURNS }, (_, i) => `You said: turn ${i + 1}`));
    expect(failing.filter((n) => !log.includes(n))).toEqual([]);
    expect(names.filter((n) => !traces.includes(n))).toEqual([]);
    expect(after).toBeLessThanOrEqual(before * 1.2 + 20 * 1024 * 1024);
  });
});

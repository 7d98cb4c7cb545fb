import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockMessage } from '../src/hooks/aggregate/block-message.ts';
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../src/hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { importEntryModule } from '../src/hooks/load-module.ts';
import { summarise, type Bench, type Figure } from './harness.ts';

const PLUGINS = 10;
const CALLS_PER_SAMPLE = 2_000;
const ROUNDS = 30;

/**
 * `invoke('pre_tool_call')` over 10 registered plugins vs a hand-written loop calling the
 * same 10 functions with the same kwargs, in alternating rounds of the same run. The figure
 * that matters is the overhead per callback in µs: (engine − loop) / 10.
 */
const bench: Bench = async () => {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-bench-'));
  try {
    const names = Array.from({ length: PLUGINS }, (_, i) => `p${String(i).padStart(2, '0')}`);
    await writeFile(join(home, 'config.yaml'), `plugins:\n  enabled: [${names.join(', ')}]\n`);
    for (const [i, name] of names.entries()) {
      await mkdir(join(home, 'plugins', name), { recursive: true });
      await writeFile(join(home, 'plugins', name, 'plugin.yaml'), `name: ${name}\n`);
      // Realistic policy callbacks: read kwargs, usually return nothing; the last one blocks.
      const body =
        i === PLUGINS - 1
          ? `return k.tool_name === 'terminal' && String((k.args as any)?.command ?? '').includes('rm -rf') ? { action: 'block', message: 'no' } : null;`
          : `return k.tool_name === 'never_${i}' ? { action: 'block', message: 'x' } : null;`;
      await writeFile(
        join(home, 'plugins', name, 'index.ts'),
        `export function check${i}(k: Record<string, unknown>) { ${body} }\nexport function register(ctx: any) { ctx.register_hook('pre_tool_call', check${i}); }\n`,
      );
    }
    // The same module namespaces feed the engine (static path) and the hand-written loop.
    const description = await discoverHooksHome(home);
    const modules: Record<string, Record<string, unknown>> = {};
    for (const plugin of description.plugins) modules[plugin.entry] = await importEntryModule(join(home, plugin.entry));
    const fns = description.plugins.map((p, i) => modules[p.entry]![`check${i}`] as (k: Record<string, unknown>) => unknown);
    const engine = await createHookEngine({ home, description, modules, logger: createMemoryLogger(), env: {}, print: () => {} });

    const kwargs = {
      tool_name: 'terminal',
      args: { command: 'rm -rf /tmp/x' },
      task_id: 't',
      session_id: 's',
      tool_call_id: 'c',
      turn_id: 'u',
      api_request_id: 'u:api:1',
      middleware_trace: [],
    };
    const handLoop = async () => {
      const results: unknown[] = [];
      for (const fn of fns) {
        const r = fn(kwargs);
        if (r !== null && r !== undefined) results.push(r);
      }
      const message = blockMessage(results);
      return message === undefined ? { action: 'allow' } : { action: 'block', message };
    };
    const viaEngine = () => engine.invoke('pre_tool_call', kwargs);
    const check = [await handLoop(), await viaEngine()];
    if (JSON.stringify(check[0]) !== JSON.stringify(check[1])) throw new Error(`results differ: ${JSON.stringify(check)}`);

    const batch = async (fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) await fn();
      return ((performance.now() - t0) * 1000) / CALLS_PER_SAMPLE; // µs per invocation
    };
    for (let i = 0; i < 3; i++) {
      await batch(handLoop);
      await batch(viaEngine);
    }
    const loopSamples: number[] = [];
    const engineSamples: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      loopSamples.push(await batch(handLoop));
      engineSamples.push(await batch(viaEngine));
    }
    const loop = summarise(loopSamples);
    const eng = summarise(engineSamples);
    await engine.close();
    const perCallback = (eng.p50 - loop.p50) / PLUGINS;
    const figures: Figure[] = [
      {
        name: `engine: invoke('pre_tool_call') over ${PLUGINS} plugins (µs per invocation, p50 of ${ROUNDS}×${CALLS_PER_SAMPLE})`,
        baseline: 'hand-written loop over the same functions',
        unit: 'µs',
        value: eng.p50,
        baselineValue: loop.p50,
        better: 'lower',
        notes: `overhead per callback ${perCallback.toFixed(3)} µs; p99 engine ${eng.p99.toFixed(2)} µs vs loop ${loop.p99.toFixed(2)} µs`,
      },
    ];
    return figures;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
};

export default bench;

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockMessage } from '../src/hooks/aggregate/block-message.ts';
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../src/hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { importEntryModule } from '../src/hooks/load-module.ts';
import { startPythonBaseline } from './support/python-baseline.ts';
import { summarise, type Bench, type Figure } from './harness.ts';

const PLUGINS = 10;
const CALLS_PER_SAMPLE = 2_000;
const ROUNDS = 30;

// Hermes's own dispatch, written as Hermes writes it (PluginManager.invoke_hook): a for-loop
// over the callbacks with try/except around each and the kwargs passed as a dict (`**kwargs`),
// over 10 no-op callbacks. The child serves one batch per "go" line and answers µs per
// invocation, so Python's start-up is not counted and its batches alternate with Node's.
const PYTHON = `
import logging, sys, time
logger = logging.getLogger("hermes.plugins")
def make(i):
    def check(**kwargs):
        if kwargs.get("tool_name") == "never_%d" % i:
            return {"action": "block", "message": "x"}
        return None
    return check
hooks = {"pre_tool_call": [make(i) for i in range(${PLUGINS})]}
def invoke_hook(hook_name, **kwargs):
    results = []
    for cb in hooks.get(hook_name, []):
        try:
            ret = cb(**kwargs)
            if ret is not None:
                results.append(ret)
        except Exception as exc:
            logger.warning("Hook '%s' callback %s raised: %s", hook_name, getattr(cb, "__name__", repr(cb)), exc)
    return results
kwargs = {"tool_name": "terminal", "args": {"command": "ls -la"}, "task_id": "t", "session_id": "s",
          "tool_call_id": "c", "turn_id": "u", "api_request_id": "u:api:1", "middleware_trace": []}
n = int(sys.argv[1])
for _ in sys.stdin:
    t0 = time.perf_counter()
    for _ in range(n):
        invoke_hook("pre_tool_call", **kwargs)
    sys.stdout.write(repr((time.perf_counter() - t0) * 1e6 / n) + "\\n")
    sys.stdout.flush()
`;

/** A python3 child that runs one batch of `invoke_hook` per request and answers µs per call. */
const startPython = (calls: number) => startPythonBaseline(PYTHON, String(calls));

/**
 * `invoke('pre_tool_call')` over 10 registered no-op plugins vs Hermes's loop in Python
 * (above), and vs a hand-written JS loop calling the same 10 functions with the same kwargs,
 * in alternating rounds of the same run. The engine's own overhead per callback is
 * (engine − JS loop) / 10.
 */
const bench: Bench = async () => {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-bench-'));
  try {
    const names = Array.from({ length: PLUGINS }, (_, i) => `p${String(i).padStart(2, '0')}`);
    await writeFile(join(home, 'config.yaml'), `plugins:\n  enabled: [${names.join(', ')}]\n`);
    for (const [i, name] of names.entries()) {
      await mkdir(join(home, 'plugins', name), { recursive: true });
      await writeFile(join(home, 'plugins', name, 'plugin.yaml'), `name: ${name}\n`);
      // No-op policy callbacks: read kwargs, return nothing (as the Python baseline's).
      const body = `return k.tool_name === 'never_${i}' ? { action: 'block', message: 'x' } : null;`;
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
    const python = startPython(CALLS_PER_SAMPLE);
    const loopSamples: number[] = [];
    const engineSamples: number[] = [];
    const pythonSamples: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        await batch(handLoop);
        await batch(viaEngine);
        await python.sample();
      }
      for (let r = 0; r < ROUNDS; r++) {
        pythonSamples.push(await python.sample());
        loopSamples.push(await batch(handLoop));
        engineSamples.push(await batch(viaEngine));
      }
    } finally {
      python.stop();
    }
    const loop = summarise(loopSamples);
    const eng = summarise(engineSamples);
    const hermes = summarise(pythonSamples);
    await engine.close();
    const perCallback = (eng.p50 - loop.p50) / PLUGINS;
    const name = `engine: invoke('pre_tool_call') over ${PLUGINS} no-op plugins (µs per invocation, p50 of ${ROUNDS}×${CALLS_PER_SAMPLE})`;
    const figures: Figure[] = [
      {
        id: 'engine-invoke',
        name,
        baseline: "Hermes's invoke_hook loop in Python (try/except per callback, **kwargs)",
        unit: 'µs',
        value: eng.p50,
        baselineValue: hermes.p50,
        better: 'lower',
        goal: '<= 0.5',
        notes: `p99 engine ${eng.p99.toFixed(2)} µs vs Python ${hermes.p99.toFixed(2)} µs`,
      },
      {
        id: 'engine-invoke.js-loop',
        name,
        baseline: 'hand-written JS loop over the same functions',
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

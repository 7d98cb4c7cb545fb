import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPythonBaseline } from './support/python-baseline.ts';
import { summarise, type Bench, type Figure } from './harness.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { parseShellHooks } from '../src/hooks/shell/config/parse-config.ts';
import { fireShellHook, shellHookCallback } from '../src/hooks/shell/shell-hook-callback.ts';
import { hookEnvironment } from '../src/hooks/shell/spawn/hook-environment.ts';
import { ShellDriverPool } from '../src/hooks/shell/spawn/shell-driver-pool.ts';
import { renderShellPayload } from '../src/hooks/shell/shell-payload.ts';

/*
 * The shell-hook hot path: one pre_tool_call round trip (payload → spawn → parse) of a
 * trivial /bin/sh script that reads stdin and prints {}, against Hermes's own path —
 * Python's subprocess.run of the same script plus JSON — measured in the same run, in
 * interleaved rounds. The Python child times itself and prints its samples, so its
 * interpreter start-up is not counted. A second pair of figures repeats both Node paths
 * after the Node heap has grown to ~400 MB, because Node's fork() cost grows with the
 * parent's size. hookgate's path is the one that ships, here and on Lambda: the /bin/sh
 * driver pool (src/hooks/shell/spawn/shell-driver-pool.ts), through the live shell-hook callback.
 * Its driver loop depends on the shell (src/hooks/shell/spawn/driver-script.ts): this machine's
 * /bin/sh is dash, Lambda's (Amazon Linux) is bash, so a last figure runs the same path with the
 * drivers in bash invoked as `sh`, as Lambda runs it.
 */

const SAMPLES = 300;

// Hermes's path, timed inside Python: build the payload, subprocess.run, parse stdout. The
// child serves one sample per "go" line, so that Python and Node samples alternate one by one
// and see the same machine load (this machine is shared; coarse rounds were too noisy).
const PYTHON = `
import json, subprocess, sys, time
script = sys.argv[1]
kwargs = {"tool_name": "terminal", "args": {"command": "ls -la"}, "task_id": "t-1", "session_id": "s-1",
          "tool_call_id": "c-1", "turn_id": "", "api_request_id": "", "middleware_trace": [],
          "telemetry_schema_version": "hermes.observer.v1"}
for _ in sys.stdin:
    t0 = time.perf_counter()
    payload = json.dumps({"hook_event_name": "pre_tool_call", "tool_name": kwargs["tool_name"],
                          "tool_input": kwargs["args"], "session_id": kwargs["session_id"], "cwd": "/",
                          "extra": {k: v for k, v in kwargs.items() if k not in ("tool_name", "args", "session_id")}})
    r = subprocess.run([script], input=payload, capture_output=True, timeout=60, text=True)
    json.loads(r.stdout)
    sys.stdout.write(repr((time.perf_counter() - t0) * 1000) + "\\n")
    sys.stdout.flush()
`;

const KWARGS = {
  tool_name: 'terminal',
  args: { command: 'ls -la' },
  task_id: 't-1',
  session_id: 's-1',
  tool_call_id: 'c-1',
  turn_id: '',
  api_request_id: '',
  middleware_trace: [],
  telemetry_schema_version: 'hermes.observer.v1',
};

/** A python3 child that times one `subprocess.run` per request and answers its ms. */
const startPython = (script: string) => startPythonBaseline(PYTHON, script);

/** The naive path: Node's spawn with pipes, from this process. */
function naiveSpawn(script: string, payload: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(script, [], { stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', () => {
      JSON.parse(out);
      resolve();
    });
    child.stdin.end(payload);
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * SAMPLES rounds of one Python sample (timed inside Python) and one timed `fire`, each round in a
 * fresh random order, so that neither path always follows the other.
 */
async function roundsWithPython(
  python: ReturnType<typeof startPython>,
  fire: () => Promise<unknown>,
): Promise<{ hookgate: number[]; python: number[] }> {
  const hookgate: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const round = [async () => py.push(await python.sample()), async () => hookgate.push(await timed(fire))].sort(
      () => Math.random() - 0.5,
    );
    for (const step of round) await step();
  }
  return { hookgate, python: py };
}

async function measure(label: string, script: string, bashAsSh?: string): Promise<Figure[]> {
  const logger = createMemoryLogger();
  const [entry] = parseShellHooks({ hooks: { pre_tool_call: [{ command: script }] } }, logger);
  const callback = shellHookCallback(entry!, logger);
  const hookgate = () => callback({ ...KWARGS });
  const naive = () => naiveSpawn(script, renderShellPayload('pre_tool_call', { ...KWARGS }));
  const python = startPython(script);
  try {
    for (let i = 0; i < 5; i++) await Promise.all([python.sample(), hookgate(), naive()]); // warm up
    // Round by round in a fresh random order, so that no path always follows another. The naive
    // spawn gets rounds of its own: its fork() leaves the Node heap copy-on-write, and whatever
    // runs next in Node pays the page faults — charged to hookgate if it came next.
    const { python: py, hookgate: fast } = await roundsWithPython(python, hookgate);
    const pyNaive: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      if (i % 2 === 0) pyNaive.push(await python.sample());
      plain.push(await timed(naive));
      if (i % 2 === 1) pyNaive.push(await python.sample());
    }
    if (logger.lines.some((l) => l.level === 'warn'))
      throw new Error(`hook warnings: ${logger.lines.map((l) => l.message).join('; ')}`);
    const rss = `${Math.round(process.memoryUsage().rss / 1e6)} MB RSS`;
    const figure = (id: string, name: string, s: ReturnType<typeof summarise>, baseline = summarise(py)): Figure => ({
      id,
      name: `${name} (${label}, ${rss})`,
      baseline: 'python subprocess.run + json',
      unit: 'ms p50',
      value: s.p50,
      baselineValue: baseline.p50,
      better: 'lower',
      notes: `p99 ${s.p99.toFixed(2)} vs ${baseline.p99.toFixed(2)} ms; n=${s.n}/${baseline.n}`,
    });
    const suffix = label === 'as started' ? '' : '.grown-heap';
    const bash = bashAsSh ? await measureBashDriver(entry!, logger, bashAsSh, python) : undefined;
    if (bash && logger.lines.some((l) => l.level === 'warn'))
      throw new Error(`hook warnings: ${logger.lines.map((l) => l.message).join('; ')}`);
    return [
      {
        ...figure(`shell-spawn${suffix}`, 'shell hook round trip, hookgate (the shipped /bin/sh driver)', summarise(fast)),
        goal: '<= 1.0',
      },
      figure(
        `shell-spawn.naive-node-spawn${suffix}`,
        'shell hook round trip, naive Node spawn',
        summarise(plain),
        summarise(pyNaive),
      ),
      ...(bash
        ? [
            figure(
              `shell-spawn.bash-driver${suffix}`,
              'shell hook round trip, hookgate with bash as /bin/sh (Lambda’s shell)',
              summarise(bash.hookgate),
              summarise(bash.python),
            ),
          ]
        : []),
    ];
  } finally {
    python.stop();
  }
}

/**
 * The shipped path (payload, spawn, evaluation: the callback's `fireShellHook`) with a driver
 * pool whose shell is bash invoked as `sh`, against Python in rounds of their own.
 */
async function measureBashDriver(
  entry: Parameters<typeof fireShellHook>[0],
  logger: Parameters<typeof fireShellHook>[2],
  shell: string,
  python: ReturnType<typeof startPython>,
): Promise<{ hookgate: number[]; python: number[] }> {
  const pool = new ShellDriverPool({ shell });
  const fire = () => fireShellHook(entry, { ...KWARGS }, logger, { environment: hookEnvironment(), pool });
  try {
    for (let i = 0; i < 5; i++) await fire();
    return await roundsWithPython(python, fire);
  } finally {
    pool.close();
  }
}

const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-bench-'));
  try {
    const script = join(dir, 'hook.sh');
    writeFileSync(script, '#!/bin/sh\ncat >/dev/null\necho "{}"\n');
    chmodSync(script, 0o755);
    // Named `sh`, bash behaves as /bin/sh (named otherwise, with a socket on stdin, it reads ~/.bashrc).
    const bashAsSh = existsSync('/bin/bash') ? join(dir, 'sh') : undefined;
    if (bashAsSh) symlinkSync('/bin/bash', bashAsSh);
    const figures = await measure('as started', script, bashAsSh);
    // Grow the heap the way a long-running gateway does, then measure again.
    const ballast: unknown[] = [];
    for (let i = 0; i < 3_000_000; i++) ballast.push({ i, s: `item-${i}` });
    figures.push(...(await measure('grown heap', script)));
    if (ballast.length === 0) throw new Error('unreachable');
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export default bench;

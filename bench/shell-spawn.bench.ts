import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarise, type Bench, type Figure } from './harness.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { parseShellHooks } from '../src/hooks/shell/parse-config.ts';
import { shellHookCallback } from '../src/hooks/shell/shell-hook-callback.ts';
import { renderShellPayload } from '../src/hooks/shell/shell-payload.ts';

/*
 * The shell-hook hot path: one pre_tool_call round trip (payload → spawn → parse) of a
 * trivial /bin/sh script that reads stdin and prints {}, against Hermes's own path —
 * Python's subprocess.run of the same script plus JSON — measured in the same run, in
 * interleaved rounds. The Python child times itself and prints its samples, so its
 * interpreter start-up is not counted. A second pair of figures repeats both Node paths
 * after the Node heap has grown to ~400 MB, because Node's fork() cost grows with the
 * parent's size (the reason the hot path spawns through a small /bin/sh driver).
 */

const ROUNDS = 8;
const PER_ROUND = 40;

const PYTHON = `
import json, subprocess, sys, time
script, n = sys.argv[1], int(sys.argv[2])
kwargs = {"tool_name": "terminal", "args": {"command": "ls -la"}, "task_id": "t-1", "session_id": "s-1",
          "tool_call_id": "c-1", "turn_id": "", "api_request_id": "", "middleware_trace": [],
          "telemetry_schema_version": "hermes.observer.v1"}
out = []
for _ in range(n):
    t0 = time.perf_counter()
    payload = json.dumps({"hook_event_name": "pre_tool_call", "tool_name": kwargs["tool_name"],
                          "tool_input": kwargs["args"], "session_id": kwargs["session_id"], "cwd": "/",
                          "extra": {k: v for k, v in kwargs.items() if k not in ("tool_name", "args", "session_id")}})
    r = subprocess.run([script], input=payload, capture_output=True, timeout=60, text=True)
    json.loads(r.stdout)
    out.append((time.perf_counter() - t0) * 1000)
print(json.dumps(out))
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

function pythonSamples(script: string, n: number): number[] {
  return JSON.parse(execFileSync('python3', ['-c', PYTHON, script, String(n)], { encoding: 'utf8' })) as number[];
}

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

async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

async function measure(label: string, script: string): Promise<Figure[]> {
  const logger = createMemoryLogger();
  const [entry] = parseShellHooks({ hooks: { pre_tool_call: [{ command: script }] } }, logger);
  const callback = shellHookCallback(entry!, logger);
  const hookgate = () => callback({ ...KWARGS });
  const naive = () => naiveSpawn(script, renderShellPayload('pre_tool_call', { ...KWARGS }));
  await timeEach(5, hookgate); // warm the driver pool
  await timeEach(5, naive);
  pythonSamples(script, 5);
  const py: number[] = [];
  const fast: number[] = [];
  const plain: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    py.push(...pythonSamples(script, PER_ROUND));
    fast.push(...(await timeEach(PER_ROUND, hookgate)));
    plain.push(...(await timeEach(PER_ROUND, naive)));
  }
  if (logger.lines.some((l) => l.level === 'warn')) throw new Error(`hook warnings: ${logger.lines.map((l) => l.message).join('; ')}`);
  const p = summarise(py);
  const rss = `${Math.round(process.memoryUsage().rss / 1e6)} MB RSS`;
  const figure = (name: string, s: ReturnType<typeof summarise>): Figure => ({
    name: `${name} (${label}, ${rss})`,
    baseline: 'python subprocess.run + json',
    unit: 'ms p50',
    value: s.p50,
    baselineValue: p.p50,
    better: 'lower',
    notes: `p99 ${s.p99.toFixed(2)} vs ${p.p99.toFixed(2)} ms; n=${s.n}/${p.n}`,
  });
  return [figure('shell hook round trip, hookgate', summarise(fast)), figure('shell hook round trip, naive Node spawn', summarise(plain))];
}

const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-bench-'));
  try {
    const script = join(dir, 'hook.sh');
    writeFileSync(script, '#!/bin/sh\ncat >/dev/null\necho "{}"\n');
    chmodSync(script, 0o755);
    const figures = await measure('as started', script);
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

import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandInModel } from '../src/agent/model/stand-in-model.ts';
import { createTurnHandler } from '../src/agent/turn-handler.ts';
import { recordHookRun } from '../src/agent/trace/hook-run-scope.ts';
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { sessionKeyOf } from '../src/messaging/message-event.ts';
import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import type { TurnMessage } from '../src/pipeline/turn-message.ts';
import { DynamoTraceStore } from '../src/store/trace-store.ts';
import { interleave, summarise, type Bench } from './harness.ts';

/**
 * One turn handler invocation (`run: true` on the stand-in model: session resolve,
 * transcript load, two model calls, one terminal spawn, every plugin hook fired inline by a
 * no-op plugin, transcript append, trace write, the handled-delivery check and record) against what a turn cannot avoid on the
 * same emulators: the same store calls and the same `/bin/sh -c true` spawn, made directly.
 * The ratio is the loop's and the hooks' overhead over the turn's mandatory I/O.
 */
const ROUNDS = 4;
const PER_ROUND = Number(process.env.HOOKGATE_BENCH_TURNS ?? 15);
const HOOKS = [
  'pre_tool_call', 'post_tool_call', 'transform_tool_result', 'transform_terminal_output', 'transform_llm_output', 'pre_llm_call',
  'post_llm_call', 'pre_api_request', 'post_api_request', 'on_session_start', 'on_session_end',
];

const bench: Bench = async () => {
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const home = await mkdtemp(join(tmpdir(), 'hookgate-turn-bench-'));
  await mkdir(join(home, 'plugins', 'noop'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [noop]\n');
  await writeFile(join(home, 'plugins', 'noop', 'plugin.yaml'), 'name: noop\n');
  await writeFile(
    join(home, 'plugins', 'noop', 'index.ts'),
    `export function register(ctx: any) { for (const hook of ${JSON.stringify(HOOKS)}) ctx.register_hook(hook, function noop() { return undefined; }); }\n`,
  );
  const engine = await createHookEngine({ home, onRun: recordHookRun, print: () => {}, logger: createMemoryLogger() });
  const traces = new DynamoTraceStore(plane.table);
  const handler = createTurnHandler({
    engine,
    logger: createMemoryLogger(),
    transport: new StandInModel(),
    sessions: plane.sessions,
    transcripts: plane.transcripts,
    approvals: plane.approvals,
    timers: plane.timerQueue,
    turns: plane.turnQueue,
    replier: { send: async () => {} },
    traces,
    handled: plane.dedup,
    workspaceRoot: join(home, 'workspaces'),
  });
  const { runCommand } = await import('../src/agent/sandbox/run-command.ts');
  let n = 0;
  const turn = async () => {
    const source = { platform: 'local', chat_id: `bench-${n++}`, user_id: 'u', user_name: '', chat_type: 'dm', thread_id: '' };
    const message: TurnMessage = {
      v: 1, kind: 'message', delivery_id: randomUUID(), session_key: sessionKeyOf(source), received_at: new Date().toISOString(),
      event: { text: 'run: true', message_id: 'm', internal: false, source, reply: { platform: 'local', chat_id: source.chat_id, thread_id: '', extra: {} } },
    };
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never);
    if (out.batchItemFailures.length > 0) throw new Error('turn failed');
  };
  let m = 0;
  const bare = async () => {
    const key = `local:bare-${m++}`;
    await plane.dedup.wasHandled(key);
    const { session } = await plane.sessions.resolve(key, { platform: 'local', chat_id: key, thread_id: '', user_id: 'u', chat_type: 'dm' });
    await plane.transcripts.load(session.session_id);
    await mkdir(join(home, 'bare'), { recursive: true });
    await runCommand('true', join(home, 'bare'), 10);
    await Promise.all([plane.transcripts.append(session.session_id, [
      { role: 'user', content: 'run: true' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'terminal', arguments: '{"command":"true"}' } }] },
      { role: 'tool', tool_call_id: 'c', content: '{"output": "", "exit_code": 0, "error": null}' },
      { role: 'assistant', content: '{"output": "", "exit_code": 0, "error": null}' },
    ]), plane.sessions.recordTurn(key, session.session_id)]);
    await traces.append([{ turn_id: `bare-${m}`, at: new Date().toISOString(), hook: 'pre_tool_call', source: '-', callback: '-', decision: 'allow', duration_ms: 0 }]);
    await plane.dedup.markHandled(key, 60);
  };
  try {
    await turn();
    await bare();
    const { baseline, candidate } = await interleave(ROUNDS, PER_ROUND, bare, turn);
    const b = summarise(baseline);
    const c = summarise(candidate);
    return [
      {
        id: 'turn',
        name: 'turn handler: one "run: true" turn, stand-in model, 11 plugin hooks with a no-op callback each (p50)',
        baseline: 'the same store calls + sh spawn made directly (p50)',
        unit: 'ms',
        value: c.p50,
        baselineValue: b.p50,
        better: 'lower',
        goal: '<= 1.15',
        notes: `p99 ${c.p99.toFixed(1)} vs ${b.p99.toFixed(1)} ms; n=${c.n}`,
      },
    ];
  } finally {
    await engine.close();
    plane.destroy();
    await aws.stop();
    await rm(home, { recursive: true, force: true });
  }
};

export default bench;

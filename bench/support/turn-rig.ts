import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandInModel } from '../../src/agent/model/stand-in-model.ts';
import { selectToolSandbox } from '../../src/agent/sandbox/select-tool-sandbox.ts';
import { DEFAULT_TOOL_POLICY } from '../../src/agent/tools/tool-policy.ts';
import { createTurnHandler } from '../../src/agent/turn-handler.ts';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { ObserverSink } from '../../src/hooks/observer-sink.ts';
import { sessionKeyOf } from '../../src/messaging/message-event.ts';
import type { DataPlane } from '../../src/pipeline/data-plane.ts';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';

/** The plugin hooks the rig's no-op plugin registers. */
export const TURN_RIG_HOOKS = [
  'pre_tool_call',
  'post_tool_call',
  'transform_tool_result',
  'transform_terminal_output',
  'transform_llm_output',
  'pre_llm_call',
  'post_llm_call',
  'pre_api_request',
  'post_api_request',
  'on_session_start',
  'on_session_end',
];

export interface TurnRig {
  /** One "run: true" turn through the turn handler, in a new chat each time. */
  turn(): Promise<void>;
  /** What such a turn cannot avoid, made directly: the same store calls and the same `sh -c true` spawn. */
  bare(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The turn benches' rig: the turn handler on the stand-in model (`run: true`: session
 * resolve, transcript load, two model calls, one terminal command in the tool sandbox (bubblewrap
 * here, the turn's default), every plugin hook fired by a
 * no-op plugin, transcript append, trace write, the handled-delivery check and record) over
 * `plane`, and its baseline. Without `observerSink` observer events run in-process (no
 * observer registered: nothing); with it they are published as a deployed turn λ publishes
 * them (its `hookgate:turn_trace` event included).
 *
 * @example
 * const rig = await startTurnRig(plane);
 * await rig.turn();
 * await rig.close();
 */
export async function startTurnRig(plane: DataPlane, options: { observerSink?: ObserverSink } = {}): Promise<TurnRig> {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-turn-bench-'));
  // The tool sandbox runs as nobody: it must pass through the home to the workspaces under it, or
  // it refuses the command without running it (and the turn measures no spawn at all).
  await chmod(home, 0o711);
  // The turn's own sandbox (bubblewrap here, as the turn's default picks it), for the bare path too.
  const { sandbox } = selectToolSandbox({ host: 'local', config: DEFAULT_TOOL_POLICY, workspaceRoot: join(home, 'workspaces') });
  await mkdir(join(home, 'plugins', 'noop'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [noop]\n');
  await writeFile(join(home, 'plugins', 'noop', 'plugin.yaml'), 'name: noop\n');
  await writeFile(
    join(home, 'plugins', 'noop', 'index.ts'),
    `export function register(ctx: any) { for (const hook of ${JSON.stringify(TURN_RIG_HOOKS)}) ctx.register_hook(hook, function noop() { return undefined; }); }\n`,
  );
  const engine = await createHookEngine({
    home,
    onRun: recordHookRun,
    print: () => {},
    logger: createMemoryLogger(),
    ...(options.observerSink ? { observerSink: options.observerSink } : {}),
  });
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
    sandbox,
  });
  // Chat ids unique per rig: several rigs may share one table.
  const rigId = randomUUID().slice(0, 8);
  let n = 0;
  const turn = async () => {
    const source = {
      platform: 'local',
      chat_id: `bench-${rigId}-${n++}`,
      user_id: 'u',
      user_name: '',
      chat_type: 'dm',
      thread_id: '',
    };
    const message: TurnMessage = {
      v: 1,
      kind: 'message',
      delivery_id: randomUUID(),
      session_key: sessionKeyOf(source),
      received_at: new Date().toISOString(),
      event: {
        text: 'run: true',
        message_id: 'm',
        internal: false,
        source,
        reply: { platform: 'local', chat_id: source.chat_id, thread_id: '', extra: {} },
      },
    };
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never);
    if (out.batchItemFailures.length > 0) throw new Error('turn failed');
  };
  let m = 0;
  const bare = async () => {
    const key = `local:bare-${rigId}-${m++}`;
    await plane.dedup.wasHandled(key);
    const { session } = await plane.sessions.resolve(key, {
      platform: 'local',
      chat_id: key,
      thread_id: '',
      user_id: 'u',
      chat_type: 'dm',
    });
    await plane.transcripts.load(session.session_id);
    const run = await sandbox.run({ sessionId: session.session_id }, { op: 'exec', command: 'true', timeoutSeconds: 10 });
    if (run.exitCode !== 0) throw new Error(`the bare path's command failed: ${run.output}`);
    await Promise.all([
      plane.transcripts.append(session.session_id, [
        { role: 'user', content: 'run: true' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'terminal', arguments: '{"command":"true"}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: '{"output": "", "exit_code": 0, "error": null}' },
        { role: 'assistant', content: '{"output": "", "exit_code": 0, "error": null}' },
      ]),
      plane.sessions.recordTurn(key, session.session_id, `bare-${rigId}-${m}`),
    ]);
    await traces.append([
      {
        turn_id: `bare-${rigId}-${m}`,
        at: new Date().toISOString(),
        hook: 'pre_tool_call',
        source: '-',
        callback: '-',
        decision: 'allow',
        duration_ms: 0,
      },
    ]);
    await plane.dedup.markHandled(key, 60);
  };
  return {
    turn,
    bare,
    async close() {
      await engine.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

import { readFile, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createTurnHandler } from '../../../src/agent/turn-handler.ts';
import type { TurnRuntimeDeps } from '../../../src/agent/turn/turn-runtime-deps.ts';
import type { TurnResult } from '../../../src/agent/turn/run-turn.ts';
import { OpenAiTransport } from '../../../src/agent/model/openai-transport.ts';
import { recordHookRun } from '../../../src/agent/trace/hook-run-scope.ts';
import type { ModelTransport } from '../../../src/agent/model/model-transport.ts';
import { createHookEngine, type LoadedHookEngine } from '../../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../../src/hooks/hook-logger.ts';
import type { ReplyTarget } from '../../../src/messaging/message-event.ts';
import { sessionKeyOf } from '../../../src/messaging/message-event.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../../src/pipeline/data-plane.ts';
import { enforceTableGrants } from '../../support/table-grants.ts';
import { asFunction } from '../../support/function-identity.ts';
import { enforcePlaneResourceGrants } from '../../support/resource-grants.ts';
import type { TurnMessage } from '../../../src/pipeline/turn-message.ts';
import { DynamoTraceStore } from '../../../src/store/trace-store.ts';
import type { RunningEmulators } from '../../../src/local/emulators.ts';
import { startTestAws } from '../../support/local-aws.ts';
import { startFakeModelServer, type FakeModelServer } from '../../support/fake-model-server.ts';
import { enable, plugin, PLUGIN_HOME_PRELUDE, tempHome, type TempHome } from '../../hooks/support/temp-home.ts';

/** Every plugin hook the recorder plugin listens to. */
export const RECORDED_HOOKS = [
  'pre_tool_call',
  'post_tool_call',
  'transform_tool_result',
  'transform_terminal_output',
  'transform_llm_output',
  'pre_llm_call',
  'post_llm_call',
  'pre_api_request',
  'post_api_request',
  'api_request_error',
  'on_session_start',
  'on_session_end',
  'on_session_finalize',
  'subagent_start',
  'subagent_stop',
  'pre_approval_request',
  'post_approval_response',
];
export const RECORDED_EVENTS = ['session:start', 'agent:start', 'agent:step', 'agent:end'];

/** One recorded hook call: the hook (or gateway event), its kwargs' key order, the kwargs. */
export interface HookCall {
  hook: string;
  keys: string[];
  kwargs: Record<string, any>;
}

/**
 * A real hooks home with a recorder plugin (every plugin hook; answers from
 * `decisions.json`, read at call time) and a recorder gateway hook, both appending to
 * `calls.jsonl`.
 */
function recorderHome(): Record<string, string> {
  const body = `
${PLUGIN_HOME_PRELUDE}  for (const hook of ${JSON.stringify(RECORDED_HOOKS)}) {
    ctx.register_hook(hook, function recorder(kwargs: any) {
      appendFileSync(join(home, 'calls.jsonl'), JSON.stringify({ hook, keys: Object.keys(kwargs), kwargs }) + '\\n');
      const file = join(home, 'decisions.json');
      if (!existsSync(file)) return undefined;
      const decisions = JSON.parse(readFileSync(file, 'utf8'));
      const decision = decisions[hook];
      if (hook === 'pre_tool_call' && decision && typeof decision === 'object' && !('action' in decision)) return decision[kwargs.tool_name];
      return decision === null ? undefined : decision;
    });
  }`;
  return {
    'config.yaml': enable('recorder'),
    ...plugin('recorder', body),
    'hooks/recorder/HOOK.yaml': `name: recorder\nevents: [${RECORDED_EVENTS.join(', ')}]\n`,
    'hooks/recorder/handler.ts': `
import { appendFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
const home = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export function handle(event: string, context: any) {
  appendFileSync(join(home, 'calls.jsonl'), JSON.stringify({ hook: event, keys: Object.keys(context), kwargs: context }) + '\\n');
}
`,
  };
}

export interface TurnHarness {
  aws: RunningEmulators;
  plane: DataPlane;
  home: TempHome;
  engine: LoadedHookEngine;
  model: FakeModelServer;
  deps: TurnRuntimeDeps;
  replies: { target: ReplyTarget; text: string }[];
  results: TurnResult[];
  handler: ReturnType<typeof createTurnHandler>;
  /** Sets the recorder plugin's answers (hook → result; pre_tool_call may map tool → result). */
  decide(decisions: Record<string, unknown>): Promise<void>;
  /** Recorded calls so far, then clears them. */
  takeCalls(): Promise<HookCall[]>;
  /** Every call `takeCalls` has returned, for checks across a whole test file. */
  allCalls: HookCall[];
  /** One handler invocation for a user message in chat `chat`. */
  say(text: string, chat?: string): Promise<TurnResult>;
  /** One handler invocation for an arbitrary queue body. */
  invoke(body: unknown): Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
  close(): Promise<void>;
}

export async function startTurnHarness(
  options: {
    transport?: (model: FakeModelServer) => ModelTransport;
    deps?: Partial<TurnRuntimeDeps>;
    /** More files for the hooks home; `config.yaml` here replaces the recorder's (keep `enable('recorder')` in it). */
    files?: Record<string, string>;
    acceptHooks?: boolean;
    /** Runs on the home before the engine loads it (e.g. chmod +x on scripts). */
    prepare?: (homePath: string) => Promise<void>;
  } = {},
): Promise<TurnHarness> {
  const aws = await startTestAws();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  // The turn λ's table, queue, topic and bucket permissions hold in every invocation
  // (test/support/table-grants.ts, resource-grants.ts).
  enforceTableGrants(plane.clients.dynamodb);
  await enforcePlaneResourceGrants(plane.clients, aws);
  const home = await tempHome({ ...recorderHome(), ...options.files });
  await options.prepare?.(home.path);
  const logger = createMemoryLogger();
  const engine = await createHookEngine({
    home: home.path,
    gatewayHooks: true,
    onRun: recordHookRun,
    print: () => {},
    logger,
    acceptHooks: options.acceptHooks ?? false,
  });
  const model = await startFakeModelServer();
  const replies: TurnHarness['replies'] = [];
  const allCalls: HookCall[] = [];
  const results: TurnResult[] = [];
  const deps: TurnRuntimeDeps = {
    engine,
    logger,
    transport:
      options.transport?.(model) ?? new OpenAiTransport({ model: 'fake-model', baseUrl: model.baseUrl, apiKey: 'test-key' }),
    sessions: plane.sessions,
    transcripts: plane.transcripts,
    approvals: plane.approvals,
    timers: plane.timerQueue,
    turns: plane.turnQueue,
    replier: { send: async (target, text) => void replies.push({ target, text }) },
    traces: new DynamoTraceStore(plane.table),
    workspaceRoot: join(home.path, 'workspaces'),
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...options.deps,
  };
  const handler = createTurnHandler(deps, (result) => {
    if ('turn_id' in result) results.push(result);
  });
  const invoke = async (body: unknown) => {
    const record = {
      messageId: randomUUID(),
      receiptHandle: 'r',
      body: JSON.stringify(body),
      attributes: {},
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:hookgate-turns.fifo',
      awsRegion: 'us-east-1',
    } as unknown as SQSRecord;
    return asFunction('turn', () => handler({ Records: [record] } as SQSEvent));
  };
  return {
    aws,
    plane,
    home,
    engine,
    model,
    deps,
    replies,
    results,
    handler,
    allCalls,
    decide: (decisions) => writeFile(join(home.path, 'decisions.json'), JSON.stringify(decisions)),
    async takeCalls() {
      const file = join(home.path, 'calls.jsonl');
      const text = await readFile(file, 'utf8').catch(() => '');
      await rm(file, { force: true });
      const calls = text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as HookCall);
      allCalls.push(...calls);
      return calls;
    },
    async say(text, chat = 'c1') {
      const before = results.length;
      const out = await invoke(userMessage(text, chat));
      if (out.batchItemFailures.length > 0) throw new Error(`the turn failed: ${JSON.stringify(out)}`);
      return results[before]!;
    },
    invoke,
    async close() {
      await engine.close();
      await model.close();
      plane.destroy();
      await aws.stop();
      await home.remove();
    },
  };
}

/** A `message` TurnMessage from user `u1` in a local DM. */
export function userMessage(text: string, chat = 'c1'): TurnMessage {
  const source = { platform: 'local', chat_id: chat, user_id: 'u1', user_name: '', chat_type: 'dm', thread_id: '' };
  return {
    v: 1,
    kind: 'message',
    delivery_id: randomUUID(),
    session_key: sessionKeyOf(source),
    received_at: new Date().toISOString(),
    event: {
      text,
      message_id: randomUUID(),
      internal: false,
      source,
      reply: { platform: 'local', chat_id: chat, thread_id: '', extra: {} },
    },
  };
}

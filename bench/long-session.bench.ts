import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatRequest } from '../src/agent/model/chat-wire.ts';
import type { ModelTransport } from '../src/agent/model/model-transport.ts';
import { StandInModel } from '../src/agent/model/stand-in-model.ts';
import { createTurnHandler } from '../src/agent/turn-handler.ts';
import { NO_HOOKS_ENGINE } from '../src/agent/turn/no-hooks-engine.ts';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { sessionKeyOf } from '../src/messaging/message-event.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import type { TurnMessage } from '../src/pipeline/turn-message.ts';
import type { TranscriptMessage } from '../src/store/transcript-store.ts';
import { summarise, type Bench } from './harness.ts';
import { AwsRequestCounter } from './support/aws-request-counter.ts';
import { DynamoTraceStore } from '../src/store/trace-store.ts';

/**
 * How a turn's cost grows with its session (docs/performance.md, "Long sessions"): a plain
 * message turn in sessions that already hold 1, 10, 100 and 1,000 stored messages (each a
 * 300-character user or assistant text), measuring per turn the DynamoDB read and write units, the
 * bytes of the model requests and the handler's latency. The headline ratio is the latency
 * at 1,000 against 1; the history window (src/agent/turn/history-window.ts) is what keeps
 * it flat.
 */
const LENGTHS = [1, 10, 100, 1000];
const TURNS = Number(process.env.HOOKGATE_BENCH_TURNS ?? 12);

const bench: Bench = async () => {
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const counter = new AwsRequestCounter();
  counter.attach(plane.clients.dynamodb, 'dynamodb');
  const home = await mkdtemp(join(tmpdir(), 'hookgate-long-session-'));
  let requestBytes = 0;
  const model = new StandInModel();
  const transport: ModelTransport = {
    model: model.model,
    provider: model.provider,
    baseUrl: model.baseUrl,
    apiMode: model.apiMode,
    send(request: ChatRequest, signal, hints) {
      requestBytes += Buffer.byteLength(JSON.stringify(request));
      return model.send(request, signal, hints);
    },
  };
  const handler = createTurnHandler({
    engine: NO_HOOKS_ENGINE,
    logger: createMemoryLogger(),
    transport,
    sessions: plane.sessions,
    transcripts: plane.transcripts,
    approvals: plane.approvals,
    timers: plane.timerQueue,
    turns: plane.turnQueue,
    replier: { send: async () => {} },
    handled: plane.dedup,
    // As the deployed turn consumer does (src/runtime/turn-consumer.ts): every turn writes its hook trace.
    traces: new DynamoTraceStore(plane.table),
    workspaceRoot: join(home, 'workspaces'),
  });
  const turn = async (chatId: string) => {
    const source = { platform: 'local', chat_id: chatId, user_id: 'u', user_name: '', chat_type: 'dm', thread_id: '' };
    const message: TurnMessage = {
      v: 1,
      kind: 'message',
      delivery_id: randomUUID(),
      session_key: sessionKeyOf(source),
      received_at: new Date().toISOString(),
      event: {
        text: 'hello again',
        message_id: 'm',
        internal: false,
        source,
        reply: { platform: 'local', chat_id: chatId, thread_id: '', extra: {} },
      },
    };
    const out = await handler({ Records: [{ messageId: randomUUID(), body: JSON.stringify(message) }] } as never);
    if (out.batchItemFailures.length > 0) throw new Error('turn failed');
  };
  const rows: { length: number; p50: number; readUnits: number; writeUnits: number; bytes: number }[] = [];
  try {
    for (const length of LENGTHS) {
      const chatId = `long-${length}`;
      await turn(chatId); // creates the session (2 messages), then the transcript is filled to `length`
      const { session } = await plane.sessions.resolve(`local:${chatId}`, {
        platform: 'local',
        chat_id: chatId,
        thread_id: '',
        user_id: 'u',
        chat_type: 'dm',
      });
      const filler = Array.from(
        { length: Math.max(0, length - 2) },
        (_, i): TranscriptMessage => ({
          role: i % 2 === 0 ? 'user' : 'assistant',
          content: `${i} ${'x'.repeat(296)}`,
        }),
      );
      for (let i = 0; i < filler.length; i += 100) await plane.transcripts.append(session.session_id, filler.slice(i, i + 100));
      const times: number[] = [];
      counter.reset();
      requestBytes = 0;
      for (let i = 0; i < TURNS; i++) {
        const t0 = performance.now();
        await turn(chatId);
        times.push(performance.now() - t0);
      }
      const units = Object.values(counter.snapshot());
      const reads = units.reduce((sum, row) => sum + row.readUnits, 0);
      const writes = units.reduce((sum, row) => sum + row.writeUnits, 0);
      rows.push({
        length,
        p50: summarise(times).p50,
        readUnits: reads / TURNS,
        writeUnits: writes / TURNS,
        bytes: requestBytes / TURNS,
      });
    }
  } finally {
    plane.destroy();
    await aws.stop();
    await rm(home, { recursive: true, force: true });
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const perLength = rows
    .map(
      (r) =>
        `${r.length}: ${r.p50.toFixed(1)} ms, ${r.readUnits.toFixed(1)} RRU, ${r.writeUnits.toFixed(1)} WRU, ${(r.bytes / 1024).toFixed(1)} KiB`,
    )
    .join('; ');
  return [
    {
      id: 'turn-long-session',
      name: `turn handler latency (p50) in a session of ${last.length} stored messages`,
      baseline: `the same turn in a session of ${first.length}`,
      unit: 'ms',
      value: last.p50,
      baselineValue: first.p50,
      better: 'lower',
      notes: perLength,
    },
    {
      id: 'turn-long-session.model-bytes',
      name: `bytes sent to the model per turn at ${last.length} stored messages`,
      baseline: `at ${first.length}`,
      unit: 'KiB',
      value: last.bytes / 1024,
      baselineValue: first.bytes / 1024,
      better: 'lower',
    },
    {
      id: 'turn-long-session.read-units',
      name: `DynamoDB read units per turn at ${last.length} stored messages`,
      baseline: `at ${first.length}`,
      unit: 'RRU',
      value: last.readUnits,
      baselineValue: first.readUnits,
      better: 'lower',
    },
    {
      id: 'turn-long-session.write-units',
      name: `DynamoDB write units per turn at ${last.length} stored messages (transcript, session, hook trace)`,
      baseline: `at ${first.length}`,
      unit: 'WRU',
      value: last.writeUnits,
      baselineValue: first.writeUnits,
      better: 'lower',
    },
  ];
};

export default bench;

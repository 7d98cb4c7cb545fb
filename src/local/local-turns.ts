import type { TurnsInFlight } from '../agent/turn/turns-in-flight.ts';
import type { ConsoleHub } from '../console/console-hub.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { turnConsumerBaseOf, type TurnConsumerBase } from '../runtime/turn-function.ts';
import type { EngineHolder } from './engine-holder.ts';
import type { LocalAws } from './emulators.ts';
import { startSqsPoller, type SqsEventHandler, type SqsPoller } from './sqs-poller.ts';
import { turnConsumerPerEngine } from './turn-consumer-per-engine.ts';
import type { DevTurnJournal } from './turn-journal.ts';

/**
 * Turns `hookgate dev` runs at once, each chat's one after another (the FIFO queue's groups). A turn
 * mostly waits, on the model or a tool: with 2, two chats running long commands held every other
 * chat's turn until theirs ended.
 */
export const DEV_TURN_CONCURRENCY = 8;

/**
 * What a turn consumer is built from under `hookgate dev`: the runtime's turn parts
 * (`turnConsumerBaseOf`, as in the turn λ) around one engine, with the tools on this machine.
 */
export interface TurnConsumerContext extends TurnConsumerBase {
  engine: HookEngine;
  /** The turns running in this process: the turn runtime notes them; `/healthz` reports the stuck ones, shutdown finalizes their sessions. */
  turnsInFlight: TurnsInFlight;
  /** Aborted when `hookgate dev` stops: running turns wrap up instead of calling the model again. */
  signal: AbortSignal;
  /** The chat's tools run on this machine, in the configured sandbox (hook-semantics §5.9). */
  toolHost: 'local';
  /** Hidden from the tool sandbox besides the hooks home and the repository: the state folder. */
  hiddenFromTools: readonly string[];
}

export interface LocalTurnsParts {
  runtime: Runtime;
  /** The engine the gateway and observer hold too; a hot reload swaps it. */
  engine: EngineHolder;
  aws: Pick<LocalAws, 'turnsQueueUrl' | 'timersQueueUrl'>;
  /** Builds the consumer from a context (`createTurnConsumer`; tests wrap it). */
  createTurnConsumer: (context: TurnConsumerContext) => SqsEventHandler | Promise<SqsEventHandler>;
  turnsInFlight: TurnsInFlight;
  signal: AbortSignal;
  hiddenFromTools: readonly string[];
  /** The console: it shows the replies and the turns as they run. */
  hub?: ConsoleHub;
  /** The turn journal (kept state): each record leaves it once handled. */
  journal?: DevTurnJournal;
  onError: (queue: 'turns' | 'timers') => (error: unknown) => void;
}

/**
 * `hookgate dev`'s turn side: what the turn λ's event source mappings do, with local
 * pollers on the turns (one at a time per poller, two pollers' worth of concurrency) and
 * timers queues. The consumer is the turn λ's (`turnConsumerBaseOf`, same replier, same
 * redaction — once, in the turn handler), built once per engine so that a hot reload's new
 * config.yaml applies, and decorated only with what is local: the journal and the console.
 * `prepare` builds a new engine's consumer ahead of a reload.
 *
 * @example
 * const turns = await startLocalTurns({ runtime, engine, aws, createTurnConsumer, turnsInFlight, signal, hiddenFromTools: [], onError });
 * await Promise.all(turns.pollers.map((p) => p.stop()));
 */
export async function startLocalTurns(
  parts: LocalTurnsParts,
): Promise<{ pollers: SqsPoller[]; prepare: (engine: HookEngine) => Promise<unknown> }> {
  const { runtime, hub, journal } = parts;
  const base = turnConsumerBaseOf(runtime);
  // The console watches what the turns answer (the gateway's replier is watched on its own).
  const replier = hub ? hub.watchReplier(base.replier) : base.replier;
  const turns = turnConsumerPerEngine(parts.engine, (engine) =>
    parts.createTurnConsumer({
      ...base,
      replier,
      engine,
      turnsInFlight: parts.turnsInFlight,
      signal: parts.signal,
      toolHost: 'local',
      hiddenFromTools: parts.hiddenFromTools,
    }),
  );
  await turns.prepare(parts.engine.current);
  const settled = journal ? journal.settling(turns.handler) : turns.handler;
  const handler = hub ? hub.watchTurns(settled) : settled;
  const { sqs } = runtime.plane.clients;
  const pollers = await Promise.all([
    startSqsPoller({
      sqs,
      queueUrl: parts.aws.turnsQueueUrl,
      handler,
      batchSize: 1,
      concurrency: DEV_TURN_CONCURRENCY,
      onError: parts.onError('turns'),
    }),
    startSqsPoller({ sqs, queueUrl: parts.aws.timersQueueUrl, handler, batchSize: 10, onError: parts.onError('timers') }),
  ]);
  return { pollers, prepare: turns.prepare };
}

import type { HookEngine } from '../hooks/hook-engine.ts';
import type { HookLogger } from '../hooks/hook-logger.ts';
import type { Replier } from '../messaging/replier.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import { modelFromConfig, type ModelSettings } from './model/model-from-config.ts';
import { toolPolicyFromConfig } from './tools/tool-policy.ts';
import { chatToolSetsFromConfig } from '../config/chat-tool-sets.ts';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import { createAttachmentDownloader } from '../messaging/attachment-download.ts';
import { attachmentDownloadConfigOf } from './attachments/download-config.ts';
import { createTranscriber } from './attachments/transcribe-audio.ts';
import { createTurnHandler } from './turn-handler.ts';
import type { TurnsInFlight } from './turn/turns-in-flight.ts';
import type { TurnRuntimeDeps } from './turn/turn-runtime-deps.ts';

/** What the turn consumer is built from; `hookgate dev`'s TurnConsumerContext fits it. */
export interface TurnConsumerParts {
  config: { model: ModelSettings; sessionIdleSeconds?: number; platforms?: DeploymentConfig['platforms']; transcription?: DeploymentConfig['transcription'] };
  plane: Pick<DataPlane, 'sessions' | 'transcripts' | 'approvals' | 'timerQueue' | 'turnQueue' | 'table' | 'dedup'> & Partial<Pick<DataPlane, 'attachments'>>;
  engine: HookEngine;
  replier: Replier;
  /** Powertools Logger or any logger with debug/info/warn/error(message). */
  logger: { debug(m: string): void; info(m: string): void; warn(m: string): void; error(m: string): void };
  /** Told of each turn invocation while it runs (`hookgate dev`: `/healthz` and the shutdown's finalize). */
  turnsInFlight?: TurnsInFlight;
  overrides?: Partial<TurnRuntimeDeps>;
  /** Aborted at shutdown: running turns stop calling the model and wrap up. */
  signal?: AbortSignal;
}

/**
 * The turn handler over a data plane: DynamoDB stores, the timers and turns queues, the
 * trace store, and the configured model (the stand-in when none is configured). Used by
 * `functions/turn.ts` and as `hookgate dev`'s `createTurnConsumer`.
 *
 * @example
 * startDevRuntime({ home, createEngine, createTurnConsumer: createTurnConsumer });
 */
export function createTurnConsumer(parts: TurnConsumerParts): ReturnType<typeof createTurnHandler> {
  const logger: HookLogger = {
    debug: (m) => parts.logger.debug(m),
    info: (m) => parts.logger.info(m),
    warn: (m) => parts.logger.warn(m),
    error: (m) => parts.logger.error(m),
  };
  return createTurnHandler({
    engine: parts.engine,
    logger,
    transport: modelFromConfig(parts.config.model),
    sessions: parts.plane.sessions,
    transcripts: parts.plane.transcripts,
    approvals: parts.plane.approvals,
    timers: parts.plane.timerQueue,
    turns: parts.plane.turnQueue,
    replier: parts.replier,
    traces: new DynamoTraceStore(parts.plane.table),
    handled: parts.plane.dedup,
    ...(parts.config.sessionIdleSeconds !== undefined ? { sessionIdleSeconds: parts.config.sessionIdleSeconds } : {}),
    toolPolicy: toolPolicyFromConfig(parts.engine.config ?? {}, parts.engine.home, logger),
    toolSets: chatToolSetsFromConfig(parts.engine.config ?? {}, logger),
    ...(parts.plane.attachments
      ? {
          attachments: {
            downloader: createAttachmentDownloader(attachmentDownloadConfigOf(parts.config.platforms ?? {})),
            store: parts.plane.attachments,
            ...(parts.config.transcription ? { transcribe: createTranscriber(parts.config.transcription) } : {}),
          },
        }
      : {}),
    ...(parts.turnsInFlight ? { turnsInFlight: parts.turnsInFlight } : {}),
    ...(parts.signal ? { signal: parts.signal } : {}),
    ...parts.overrides,
  });
}

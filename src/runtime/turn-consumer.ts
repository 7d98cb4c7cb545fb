import type { HookEngine } from '../hooks/hook-engine.ts';
import type { HookLogger } from '../hooks/hook-logger.ts';
import type { Replier } from '../messaging/replier.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import { modelFromConfig } from '../agent/model/model-from-config.ts';
import type { ModelSettings } from '../agent/model/model-settings.ts';
import { selectToolSandbox, type ToolHost } from '../agent/sandbox/select-tool-sandbox.ts';
import type { ToolSandbox } from '../agent/sandbox/tool-sandbox.ts';
import { toolPolicyFromConfig } from '../agent/tools/tool-policy.ts';
import { chatToolSetsFromConfig } from '../config/chat-tool-sets.ts';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import { createAttachmentDownloader } from '../platforms/attachment-download.ts';
import { createTranscriber } from '../agent/attachments/transcribe-audio.ts';
import { createTurnHandler } from '../agent/turn-handler.ts';
import type { TurnsInFlight } from '../agent/turn/turns-in-flight.ts';
import type { TurnRuntimeDeps } from '../agent/turn/turn-runtime-deps.ts';

/** What the turn consumer is built from; `hookgate dev`'s TurnConsumerContext fits it. */
export interface TurnConsumerParts {
  config: {
    model: ModelSettings;
    sessionIdleSeconds?: number;
    replyPlatforms?: DeploymentConfig['replyPlatforms'];
    transcription?: DeploymentConfig['transcription'];
  };
  plane: Pick<DataPlane, 'sessions' | 'transcripts' | 'approvals' | 'timerQueue' | 'turnQueue' | 'table' | 'dedup'> &
    Partial<Pick<DataPlane, 'attachments'>>;
  engine: HookEngine;
  replier: Replier;
  /** Powertools Logger or any logger with debug/info/warn/error(message). */
  logger: { debug(m: string): void; info(m: string): void; warn(m: string): void; error(m: string): void };
  /** Told of each turn invocation while it runs (`hookgate dev`: `/healthz` and the shutdown's finalize). */
  turnsInFlight?: TurnsInFlight;
  /**
   * Where the chat's tools run (hook-semantics §5.9): `local` (bubblewrap where it runs) or
   * `lambda` (the tools function; refused until one is deployed). Default `local`.
   */
  toolHost?: ToolHost;
  /**
   * The Lambda tools function's sandbox (issue #24 item 4 plugs it in here): with `toolHost:
   * 'lambda'`, the tools run there; without it they are refused unless `terminal.sandbox: none`.
   */
  lambdaSandbox?: () => ToolSandbox;
  /** Folders hidden from the tool sandbox besides the hooks home and the repository (`hookgate dev`'s state folder). */
  hiddenFromTools?: readonly string[];
  overrides?: Partial<TurnRuntimeDeps>;
  /** Aborted at shutdown: running turns stop calling the model and wrap up. */
  signal?: AbortSignal;
}

/**
 * The turn handler over a data plane: DynamoDB stores, the timers and turns queues, the
 * trace store, the configured model (the stand-in when none is configured) and the configured
 * tool sandbox (`terminal.sandbox`, for `parts.toolHost`). Used by
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
  const toolPolicy = toolPolicyFromConfig(parts.engine.config ?? {}, parts.engine.home, logger);
  const tools = selectToolSandbox({
    host: parts.toolHost ?? 'local',
    config: toolPolicy,
    ...(parts.overrides?.workspaceRoot ? { workspaceRoot: parts.overrides.workspaceRoot } : {}),
    ...(parts.hiddenFromTools ? { hidden: parts.hiddenFromTools } : {}),
    ...(parts.lambdaSandbox ? { lambda: parts.lambdaSandbox } : {}),
  });
  // At every start (and every reload of config.yaml): a `none` warning, or the fix when no sandbox runs.
  if (tools.notice) logger.warn(`tool sandbox: ${tools.notice}`);
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
    toolPolicy,
    sandbox: tools.sandbox,
    toolSets: chatToolSetsFromConfig(parts.engine.config ?? {}, logger),
    ...(parts.plane.attachments
      ? {
          attachments: {
            downloader: createAttachmentDownloader({ platforms: parts.config.replyPlatforms ?? {} }),
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

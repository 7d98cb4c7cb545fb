import type { Logger } from '@aws-lambda-powertools/logger';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import type { ObserverSink } from '../hooks/observer-sink.ts';
import type { TurnMessage } from '../pipeline/turn-message.ts';
import type { ApprovalStore } from '../store/approval-store.ts';
import type { DeliveryDedupStore } from '../store/delivery-dedup-store.ts';
import type { LocalOutboxStore } from '../store/local-outbox-store.ts';
import type { SessionStore } from '../store/session-store.ts';
import type { TraceStore } from '../store/trace-store.ts';
import type { Replier } from '../messaging/replier.ts';
import type { HealthProbe } from './health-report.ts';

/** Anything that puts a turn message durably on the FIFO turns queue (e.g. `SqsTurnQueue`). */
export interface TurnSender {
  send(message: TurnMessage): Promise<void>;
}

/** What the gateway app is built from; `functions/gateway.ts` and `hookgate dev` wire the real parts. */
export interface GatewayDeps {
  config: DeploymentConfig;
  engine: HookEngine;
  dedup: DeliveryDedupStore;
  sessions: SessionStore;
  approvals: ApprovalStore;
  turnQueue: TurnSender;
  /** Where `POST /v1/events` publishes (the engine's observer sink). */
  observerSink: ObserverSink;
  replier: Replier;
  /** Hook traces, read by plugin commands (`traces()` of their context); absent: they see none. */
  traces?: Pick<TraceStore, 'listSession'>;
  /** Read by `GET /webhooks/local/messages` (local platform only). */
  outbox?: LocalOutboxStore;
  logger: Logger;
  /** How long a delivery id is remembered; platforms retry for up to a day. Default 2 days. */
  dedupTtlSeconds?: number;
  now?: () => Date;
  /** Turns in flight in this process (`hookgate dev`): a stuck one makes `/healthz` degraded. */
  turnHealth?: HealthProbe;
}

import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Hono } from 'hono';
import { loadDeploymentConfig, type DeploymentConfig } from '../../../src/config/deployment-config.ts';
import { createGatewayApp } from '../../../src/gateway/app.ts';
import { gatewayDepsFromDataPlane } from '../../../src/runtime/gateway-deps-from-data-plane.ts';
import type { GatewayDeps } from '../../../src/gateway/gateway-deps.ts';
import type { HookEngine } from '../../../src/hooks/hook-engine.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../../src/pipeline/data-plane.ts';
import { TABLE_ACCESS } from '../../../infra/lib/table-access.ts';
import { enforceTableGrants, LOCAL_REPLY_OUTBOX } from '../../support/table-grants.ts';
import { asFunction } from '../../support/function-identity.ts';
import { enforcePlaneResourceGrants } from '../../support/resource-grants.ts';
import { TurnMessageSchema, type TurnMessage } from '../../../src/pipeline/turn-message.ts';
import type { RunningEmulators } from '../../../src/local/emulators.ts';

export interface GatewayHarness {
  app: Hono;
  config: DeploymentConfig;
  plane: DataPlane;
  deps: GatewayDeps;
  request(
    path: string,
    init?: { method?: string; body?: string | Uint8Array; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Every turn message now on the turns queue (received and deleted). */
  drainTurns(): Promise<TurnMessage[]>;
}

/**
 * The real gateway app over the real stores and queues of one emulator set, with the
 * engine the test chooses. Requests go through Hono's full stack in-process.
 */
export function gatewayHarness(
  aws: RunningEmulators,
  env: NodeJS.ProcessEnv,
  engine: HookEngine,
  overrides: Partial<GatewayDeps> = {},
): GatewayHarness {
  const config = loadDeploymentConfig(env, { runtime: 'local' });
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  // The gateway λ's table permissions hold in every request (test/support/table-grants.ts), plus the
  // local adapter's reply outbox, which these tests' local platform writes and the stack never enables.
  enforceTableGrants(plane.clients.dynamodb, { ...TABLE_ACCESS, gateway: [...TABLE_ACCESS.gateway, LOCAL_REPLY_OUTBOX] });
  // And its queue, topic and bucket permissions (test/support/resource-grants.ts).
  void enforcePlaneResourceGrants(plane.clients, aws);
  // The production wiring (stores, queue, sink, outbox, replier), so tests exercise it too.
  const deps: GatewayDeps = {
    ...gatewayDepsFromDataPlane({
      config,
      engine,
      plane,
      logger: new Logger({ serviceName: 'hookgate-test', logLevel: 'SILENT' }),
    }),
    ...overrides,
  };
  const app = createGatewayApp(deps);
  return {
    app,
    config,
    plane,
    deps,
    request: (path, init = {}) =>
      asFunction('gateway', () =>
        Promise.resolve(
          app.request(`http://127.0.0.1:8787${path}`, {
            method: init.method ?? 'POST',
            ...(init.body !== undefined ? { body: init.body } : {}),
            headers: init.headers ?? { 'content-type': 'application/json' },
          }),
        ),
      ),
    async drainTurns() {
      const out: TurnMessage[] = [];
      for (let empty = 0; empty < 2; ) {
        const { Messages } = await plane.clients.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: aws.turnsQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        if (!Messages?.length) {
          empty++;
          continue;
        }
        for (const m of Messages) {
          out.push(TurnMessageSchema.parse(JSON.parse(m.Body!)));
          await plane.clients.sqs.send(
            new DeleteMessageCommand({ QueueUrl: aws.turnsQueueUrl, ReceiptHandle: m.ReceiptHandle! }),
          );
        }
      }
      return out;
    },
  };
}

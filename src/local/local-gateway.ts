import type { Hono } from 'hono';
import type { TurnsInFlight } from '../agent/turn/turns-in-flight.ts';
import type { ConsoleHub } from '../console/console-hub.ts';
import type { GatewayDeps } from '../gateway/gateway-deps.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { createGatewayAppOf } from '../runtime/gateway-function.ts';
import type { EngineHolder } from './engine-holder.ts';
import { listenOnLoopback } from './loopback-server.ts';
import type { StopSteps } from './stop-steps.ts';
import type { DevTurnJournal } from './turn-journal.ts';

export interface LocalGatewayParts {
  runtime: Runtime;
  /** The engine the consumers hold too; each request runs on the engine current when it starts. */
  engine: EngineHolder;
  /** The turns running in this process: `/healthz` reports the stuck ones. */
  turnsInFlight: TurnsInFlight;
  /** The console: it watches the gateway's replies and the turns it queues. */
  hub?: ConsoleHub;
  /** The turn journal (kept state): the turns are queued through it. */
  journal?: DevTurnJournal;
  /** Adds routes after the gateway's own (the console). */
  mount?: (app: Hono, deps: GatewayDeps) => void;
  /** 0 = any free port. */
  port: number;
  /** Where the server registers how it stops. */
  steps: StopSteps;
}

/**
 * `hookgate dev`'s gateway: the gateway λ's app (`createGatewayAppOf`, same dependencies, same
 * redacting replier) with what is local around it — turn health for `/healthz`, the turn
 * journal, the console's watchers and routes — served on 127.0.0.1, one engine per request.
 *
 * @example
 * const { url, deps } = await startLocalGateway({ runtime, engine, turnsInFlight, port: 0, steps });
 */
export async function startLocalGateway(parts: LocalGatewayParts): Promise<{ url: string; deps: GatewayDeps }> {
  const { hub, journal, mount } = parts;
  const { app, deps } = createGatewayAppOf(parts.runtime, parts.engine, {
    decorate: (deps) => {
      const turnQueue = journal ?? deps.turnQueue;
      return {
        ...deps,
        turnHealth: parts.turnsInFlight,
        replier: hub ? hub.watchReplier(deps.replier) : deps.replier,
        turnQueue: hub ? hub.watchTurnQueue(turnQueue) : turnQueue,
      };
    },
    ...(mount ? { mount: (app, { deps }) => mount(app, deps) } : {}),
  });
  const { engine } = parts;
  // One request, one engine, even if a reload happens meanwhile.
  const server = await listenOnLoopback(
    (request, env) => engine.pinned(() => Promise.resolve(app.fetch(request, env))),
    parts.port,
  );
  parts.steps.add('the HTTP server', () => server.close());
  return { url: server.url, deps };
}

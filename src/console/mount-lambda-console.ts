import type { Hono } from 'hono';
import type { GatewayDeps } from '../gateway/gateway-deps.ts';
import { bundledHooksHome, bundledHooksOptions } from '../hooks/bundled-hooks.ts';
import { withShippedApprovals } from '../hooks/shell/consent/shipped-allowlist-store.ts';
import { resolveHooksHome } from '../hooks/hooks-home.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { ConsoleData, type ConsoleDlq } from './console-data.ts';
import { mountConsole } from './mount-console.ts';

/**
 * The console in the deployed gateway, opt-in: mounted at `/console` only when
 * `HOOKGATE_CONSOLE=1` (the stack sets it with `-c console=true`) and `HOOKGATE_API_TOKEN`
 * is set; every API call then needs that token (see `mountConsole`, mode `aws`). Enabled
 * without a token, it stays off and says so in the log. It reads the traces and the
 * undelivered replies of the table, the DLQs the stack names in the environment (only
 * those it was given), and the bundled hooks home with the deployed allowlist.
 *
 * @example
 * const { app } = await createGatewayFunction(runtime, { mount: mountConsoleWhenEnabled });
 */
export function mountConsoleWhenEnabled(app: Hono, context: { deps: GatewayDeps; runtime: Runtime }): void {
  const { deps, runtime } = context;
  const { plane } = runtime;
  const resources = runtime.config.resources;
  if (!deps.config.console) return;
  if (!deps.config.apiToken) {
    deps.logger.warn(
      'HOOKGATE_CONSOLE is on but HOOKGATE_API_TOKEN is not set: the console stays off (it is only served behind the /v1 token)',
    );
    return;
  }
  const dlqs: ConsoleDlq[] = [];
  const pairs: [ConsoleDlq['name'], string | undefined, string | undefined][] = [
    ['turns', resources.turnsDlqUrl, resources.turnsQueueUrl],
    ['timers', resources.timersDlqUrl, resources.timersQueueUrl],
    ['events', resources.eventsDlqUrl, resources.eventsQueueUrl],
  ];
  for (const [name, dlqUrl, sourceQueueUrl] of pairs) {
    if (dlqUrl && sourceQueueUrl) dlqs.push({ name, dlqUrl, sourceQueueUrl });
  }
  // The hooks home: compiled into the bundle in AWS; otherwise the engine's (HOOKGATE_HOME / HERMES_HOME).
  const home = bundledHooksHome() ?? deps.engine.home ?? runtime.engineOptions('gateway').home ?? resolveHooksHome(process.env);
  // The approvals the deployed engine honours: the table's and those shipped in the bundle (-c approveShellHooks).
  const allowlist = withShippedApprovals(plane.allowlist, bundledHooksOptions().description?.approvedShellHooks ?? []);
  const description = bundledHooksOptions().description;
  const data = new ConsoleData({
    table: plane.table,
    sqs: plane.clients.sqs,
    dlqs,
    home,
    allowlist,
    ...(description ? { description } : {}),
  });
  mountConsole(app, { mode: 'aws', token: deps.config.apiToken, data, home, replier: deps.replier });
  deps.logger.info('the console is served at /console (HOOKGATE_CONSOLE=1; API calls need the /v1 bearer token)', {
    dlqs: dlqs.map((d) => d.name),
  });
}

import type { Hono } from 'hono';
import type { Replier } from '../messaging/replier.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { ConsoleData, type PluginLoad } from './console-data.ts';
import type { ConsoleHub, ReloadStatus } from './console-hub.ts';
import { mountConsole } from './mount-console.ts';

/**
 * `hookgate dev`'s console over its data plane and local queues.
 *
 * @example
 * mountDevConsole(app, { hub, plane, aws, home, replier: deps.replier });
 */
export function mountDevConsole(
  app: Hono,
  options: {
    hub: ConsoleHub;
    plane: DataPlane;
    aws: {
      turnsQueueUrl: string;
      turnsDlqUrl: string;
      timersQueueUrl: string;
      timersDlqUrl: string;
      eventsQueueUrl: string;
      eventsDlqUrl: string;
    };
    home: string;
    state?: string;
    /** Retries undelivered replies: the gateway's replier. */
    replier: Replier;
    /** Hot reload's state, shown in the hooks panel (absent: no hot reload). */
    reloadStatus?: () => ReloadStatus;
    /** How the running engine's plugins loaded: a failed one shows red, not running. */
    pluginLoads?: () => readonly PluginLoad[] | undefined;
  },
): void {
  const { aws } = options;
  const data = new ConsoleData({
    table: options.plane.table,
    sqs: options.plane.clients.sqs,
    home: options.home,
    ...(options.reloadStatus ? { reloadStatus: options.reloadStatus } : {}),
    ...(options.pluginLoads ? { pluginLoads: options.pluginLoads } : {}),
    dlqs: [
      { name: 'turns', dlqUrl: aws.turnsDlqUrl, sourceQueueUrl: aws.turnsQueueUrl },
      { name: 'timers', dlqUrl: aws.timersDlqUrl, sourceQueueUrl: aws.timersQueueUrl },
      { name: 'events', dlqUrl: aws.eventsDlqUrl, sourceQueueUrl: aws.eventsQueueUrl },
    ],
  });
  mountConsole(app, {
    mode: 'dev',
    hub: options.hub,
    data,
    home: options.home,
    replier: options.replier,
    ...(options.state ? { state: options.state } : {}),
  });
}

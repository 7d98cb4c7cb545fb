import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { DevStartError } from './dev-start-error.ts';

/**
 * Serves `fetch` on 127.0.0.1 only (what `hookgate dev` exposes is for this machine); a port
 * in use is a clear error, not a crash. `close()` also drops idle keep-alive connections,
 * which would otherwise hold it open for their timeout.
 *
 * @example
 * const server = await listenOnLoopback(app.fetch, 0);
 * await fetch(`${server.url}/healthz`);
 * await server.close();
 */
export function listenOnLoopback(
  fetch: Parameters<typeof serve>[0]['fetch'],
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      }),
    );
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new DevStartError(`port ${port} on 127.0.0.1 is in use; pass --port <another>`) : error,
      ),
    );
  });
}

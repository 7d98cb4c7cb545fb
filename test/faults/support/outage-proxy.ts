import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP proxy that can be cut off: what a client sees when a service becomes unreachable and comes back. */
export interface OutageProxy {
  /** `http://127.0.0.1:<port>`: give this to the clients instead of the service's own URL. */
  url: string;
  /** Stops accepting (new connections are refused) and resets every open connection. */
  cut(): Promise<void>;
  /** Accepts again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of `target` (`http://host:port`), for outages that keep the
 * service's state: the emulator behind it keeps its messages, as SQS does through an outage,
 * while every client connection is refused or reset.
 *
 * @example
 * const proxy = await startOutageProxy(fauxqsUrl);
 * await proxy.cut(); // … clients fail …
 * await proxy.restore();
 */
export async function startOutageProxy(target: string): Promise<OutageProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of open) socket.resetAndDestroy();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    restore: () => listen(port),
    close: async () => {
      if (server.listening) await cut();
    },
  };
}

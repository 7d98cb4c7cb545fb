import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP proxy that can be cut off, or whose connections can die silently. */
export interface OutageProxy {
  /** `http://127.0.0.1:<port>`: give this to the clients instead of the service's own URL. */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Stops accepting (new connections are refused) and resets every open connection. */
  cut(): Promise<void>;
  /** Accepts again, on the same port. */
  restore(): Promise<void>;
  /**
   * The connections open now stop carrying bytes either way, without a FIN or a reset: what a
   * client's kept-alive socket is after a NAT gateway forgot it while the environment was frozen.
   * Connections opened later are carried as before.
   */
  darken(): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of `target` (`http://host:port`), for outages that keep the
 * service's state: the emulator behind it keeps its messages, as SQS does through an outage,
 * while every client connection is refused or reset (`cut`), or dies silently (`darken`). With
 * `darkFromStart`, the first that many connections are dark from the moment they are accepted (a
 * peer that takes the request and never answers).
 *
 * @example
 * const proxy = await startOutageProxy(fauxqsUrl);
 * await proxy.cut(); // … clients fail …
 * await proxy.restore();
 * proxy.darken(); // … the next request on a kept-alive connection hears nothing …
 */
export async function startOutageProxy(target: string, options: { darkFromStart?: number } = {}): Promise<OutageProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const open = new Set<Socket>();
  const dark = new Set<Socket>();
  let accepted = 0;
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  const server = createServer((client) => {
    accepted++;
    track(client);
    client.on('error', () => client.destroy());
    if (accepted <= (options.darkFromStart ?? 0)) {
      dark.add(client);
      client.resume(); // read and drop: the request is taken, nothing comes back
      return;
    }
    const upstream = connect(Number(targetPort), hostname);
    track(upstream);
    // A dark connection hears nothing more, not even the service closing its idle end.
    const hangUp = () => {
      if (!dark.has(client)) client.destroy();
    };
    upstream.on('error', hangUp);
    upstream.on('close', hangUp);
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      if (!dark.has(client)) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dark.has(client)) client.write(chunk);
    });
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
    connections: () => accepted,
    cut,
    restore: () => listen(port),
    darken: () => {
      for (const socket of open) dark.add(socket);
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}

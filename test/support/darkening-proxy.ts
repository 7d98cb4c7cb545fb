import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP proxy whose open connections can go dark. */
export interface DarkeningProxy {
  /** `http://127.0.0.1:<port>`: give this to the clients instead of the service's own URL. */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /**
   * The connections open now stop carrying bytes either way, without a FIN or a reset: what a
   * client's kept-alive socket is after a NAT gateway forgot it while the environment was frozen.
   * Connections opened later are carried as before.
   */
  darken(): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of `target` (`http://host:port`) for a connection that dies silently.
 * With `darkFromStart`, every connection is dark from the moment it is accepted until that
 * many have been (a peer that takes the request and never answers).
 *
 * @example
 * const proxy = await startDarkeningProxy(aws.dynamodbEndpoint);
 * await put(); // opens a kept-alive connection
 * proxy.darken();
 * await put(); // must give that connection up and open another
 */
export async function startDarkeningProxy(target: string, options: { darkFromStart?: number } = {}): Promise<DarkeningProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const open = new Set<Socket>();
  const dark = new Set<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted++;
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    if (accepted <= (options.darkFromStart ?? 0)) {
      dark.add(client);
      client.resume(); // read and drop: the request is taken, nothing comes back
      return;
    }
    const upstream = connect(Number(targetPort), hostname);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    darken: () => {
      for (const socket of open) dark.add(socket);
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}

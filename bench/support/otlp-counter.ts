import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one OTLP signal path received. */
export interface OtlpSignalCount {
  posts: number;
  /** Request body bytes as sent (protobuf, gzip when the exporter compresses). */
  bytes: number;
}

export interface OtlpCounter {
  /** The base URL (`HOOKGATE_OTLP_ENDPOINT`). */
  url: string;
  traces: OtlpSignalCount;
  metrics: OtlpSignalCount;
  close(): Promise<void>;
}

/**
 * The export benches' OTLP/HTTP receiver: answers every `POST /v1/traces` and `POST
 * /v1/metrics` with 200 (an empty protobuf response) and only counts requests and body bytes.
 * It decodes nothing (test/support/otlp-receiver.ts does, for the tests), so the receiving
 * side costs the bench's process as little as a collector's network hop would.
 *
 * @example
 * const otlp = await startOtlpCounter();
 * // … run with HOOKGATE_OTLP_ENDPOINT=otlp.url …
 * console.log(otlp.traces.posts, otlp.traces.bytes);
 * await otlp.close();
 */
export async function startOtlpCounter(): Promise<OtlpCounter> {
  const counts = { traces: { posts: 0, bytes: 0 }, metrics: { posts: 0, bytes: 0 } };
  const server = createServer((request, response) => {
    const signal =
      request.method === 'POST' && request.url === '/v1/traces'
        ? counts.traces
        : request.method === 'POST' && request.url === '/v1/metrics'
          ? counts.metrics
          : undefined;
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      if (!signal) {
        response.writeHead(404).end();
        return;
      }
      signal.posts += 1;
      signal.bytes += bytes;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ...counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

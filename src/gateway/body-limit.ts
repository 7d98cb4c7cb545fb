import type { MiddlewareHandler } from 'hono';

/** Bodies larger than this are not read to the end: the answer closes the connection instead. */
const DEFAULT_DRAIN_BYTES = 16 * 1024 * 1024;

export interface BodyLimitOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** How much of a refused body is read and discarded so the connection can be kept. */
  drainBytes?: number;
}

/**
 * Refuses a request body over `maxBytes` with 413 `{"error": …}` naming the limit, without
 * holding more than `maxBytes` in memory — and without breaking a keep-alive connection:
 * the rest of a refused body is read and discarded before the answer goes out (a server
 * that answers mid-upload and then drops the socket makes the client see a reset instead of
 * the 413, and requests queued on that connection fail too). A body too large to drain
 * (over `drainBytes`) gets its 413 with `Connection: close`. A body without a declared length
 * (chunked) is counted as it is read, buffered and handed on, so handlers read it as usual; one
 * whose declared length is within the limit is handed on unread.
 *
 * @example
 * app.use('/webhooks/*', bodyLimit({ maxBytes: 1024 * 1024 }));
 */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const { maxBytes } = options;
  const drainBytes = Math.max(maxBytes, options.drainBytes ?? DEFAULT_DRAIN_BYTES);
  const tooLarge = (bytes: string) => `the body is ${bytes}; the limit is ${maxBytes} bytes`;

  return async (c, next) => {
    const length = c.req.header('content-length');
    const declared = length === undefined || length === '' ? Number.NaN : Number(length);
    // A declared length is the body's length (HTTP framing: Node's parser and Lambda's front end
    // deliver no more), so a body within the limit is handed on unread. Reading it here would
    // swap the server adapter's direct read for a web stream, a copy and a second Request.
    if (Number.isFinite(declared) && declared <= maxBytes) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    if (Number.isFinite(declared) && declared > drainBytes) {
      await body.cancel().catch(() => {});
      return c.json({ error: tooLarge(`${declared} bytes`) }, 413, { connection: 'close' });
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch {
        return c.json({ error: 'the body could not be read' }, 400, { connection: 'close' });
      }
      if (read.done) break;
      total += read.value.byteLength;
      if (total <= maxBytes) chunks.push(read.value);
      else if (total > drainBytes) {
        await reader.cancel().catch(() => {});
        return c.json({ error: tooLarge(`over ${drainBytes} bytes`) }, 413, { connection: 'close' });
      } else chunks.length = 0; // refused: keep reading, hold nothing
    }
    if (total > maxBytes) return c.json({ error: tooLarge(`${total} bytes`) }, 413);
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks) });
    return next();
  };
}

/**
 * Reads and discards what is left of a request body (at most `limit` bytes) before a
 * refusal is sent, so a keep-alive connection stays usable. True when the body was read to
 * its end; false when it was larger, and the answer should close the connection.
 *
 * @example
 * const keepAlive = await discardBody(c.req.raw);
 */
export async function discardBody(request: Request, limit: number = DEFAULT_DRAIN_BYTES): Promise<boolean> {
  if (!request.body || request.bodyUsed) return true;
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) return true;
      total += read.value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return false;
      }
    }
  } catch {
    return false;
  }
}

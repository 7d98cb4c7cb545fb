import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PresignedWorkspace } from '../../src/agent/sandbox/presigned-workspace.ts';
import { SandboxError } from '../../src/agent/sandbox/tool-sandbox.ts';

/** A stand-in for a presigned S3 URL: each request is answered by the next of `answers` (the last one repeats). */
async function bucket(
  answers: ((request: IncomingMessage, response: ServerResponse) => void)[],
): Promise<{ url: string; requests: { method: string; bytes: number }[] }> {
  const requests: { method: string; bytes: number }[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', bytes: Buffer.concat(chunks).length });
      answers[Math.min(requests.length, answers.length) - 1]!(request, response);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/workspace.tar.gz?X-Amz-Signature=x`, requests };
}

/** No answer at all: the connection is dropped, as a kept-alive one gone while the environment was frozen. */
const dropped = (request: IncomingMessage) => request.socket.destroy();
/** The request is taken and never answered: a connection that died silently. */
const silent = () => {};
const status =
  (code: number, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(code, headers);
    response.end();
  };

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('PresignedWorkspace: a transfer that may pass is tried again', () => {
  it('restores after a dropped connection, and saves after a 503, sending the same archive again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-presigned-'));
    const get = await bucket([dropped, status(404)]);
    const workspace = new PresignedWorkspace(join(dir, 'ws'));
    await workspace.restore('session-1', get.url);
    expect(get.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(await readdir(join(dir, 'ws'))).toEqual([]);

    await writeFile(join(dir, 'ws', 'notes.txt'), 'buy milk\n');
    await new Promise((resolve) => server!.close(resolve));
    const put = await bucket([status(503), status(200, { etag: '"v1"' })]);
    expect(await workspace.save(put.url)).toBe(true);
    expect(put.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(put.requests[1]!.bytes).toBe(put.requests[0]!.bytes);
    expect(put.requests[0]!.bytes).toBeGreaterThan(0);
  });

  it('gives up a try that gets no answer and sends the request again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-presigned-'));
    const get = await bucket([silent, status(404)]);
    // Without the limit the GET waits for undici's 300 s: the test times out.
    await new PresignedWorkspace(join(dir, 'ws'), undefined, 200).restore('session-1', get.url);
    expect(get.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    await expect(readdir(join(dir, 'ws'))).resolves.toEqual([]);
  });

  it('gives up after three tries, with what the last one got', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-presigned-'));
    const get = await bucket([status(503)]);
    const workspace = new PresignedWorkspace(join(dir, 'ws'));
    const failed = workspace.restore('session-1', get.url);
    await expect(failed).rejects.toThrow(SandboxError);
    await expect(failed).rejects.toThrow(/HTTP 503/);
    expect(get.requests).toHaveLength(3);
  });

  it('does not try again what will not pass (403: the URL expired or is not this one)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-presigned-'));
    const get = await bucket([status(403)]);
    await expect(new PresignedWorkspace(join(dir, 'ws')).restore('session-1', get.url)).rejects.toThrow(/HTTP 403/);
    expect(get.requests).toHaveLength(1);
  });
});

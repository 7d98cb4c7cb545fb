import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { isLoopbackHostname } from '../../src/platforms/local/loopback-json-only.ts';
import { startTestAws } from '../support/local-aws.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';
import { recordingEngine } from './support/recording-engine.ts';

/**
 * `POST /webhooks/local` is unsigned: a web page on another origin could post to it through
 * the user's browser (a form, a text/plain fetch, a DNS-rebound host name) and so run a
 * command. Real HTTP against the gateway on 127.0.0.1, with the headers a browser sends.
 */
let aws: RunningEmulators;
let gw: GatewayHarness;
let server: ServerType;
let port: number;

beforeAll(async () => {
  aws = await startTestAws();
  gw = gatewayHarness(aws, {}, recordingEngine());
  await gw.drainTurns();
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: gw.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  gw?.plane.destroy();
  await aws?.stop();
});

const MESSAGE = JSON.stringify({ chat_id: 'origin', user_id: 'u1', text: 'run: id' });

/** A raw HTTP POST (node:http lets a test set Host, as a DNS-rebound page would have it). */
function post(headers: Record<string, string>, body = MESSAGE): Promise<{ status: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/webhooks/local', headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(JSON.parse(text || '{}') as { error?: string }) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('POST /webhooks/local answers this machine only', () => {
  it.each([
    ['a cross-origin form post', { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' }, 403],
    ['a cross-origin text/plain fetch', { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.test' }, 403],
    ['a cross-origin multipart form', { 'content-type': 'multipart/form-data; boundary=x', origin: 'http://evil.test' }, 403],
    ['JSON from another origin', { 'content-type': 'application/json', origin: 'http://evil.test' }, 403],
    ['JSON from an opaque origin (file:, sandboxed frame)', { 'content-type': 'application/json', origin: 'null' }, 403],
    ['JSON from a non-http loopback origin', { 'content-type': 'application/json', origin: 'chrome-extension://abc' }, 403],
    ['a form post without Origin', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a text/plain post without Origin', { 'content-type': 'text/plain' }, 415],
    ['a post with no content-type', {}, 415],
    ['JSON sent to a DNS-rebound host name', { 'content-type': 'application/json', host: 'evil.test' }, 403],
    [
      'JSON to a rebound name with a loopback-looking prefix',
      { 'content-type': 'application/json', host: '127.0.0.1.evil.test' },
      403,
    ],
    [
      'JSON to a rebound name with a loopback origin',
      { 'content-type': 'application/json', host: 'evil.test:80', origin: 'http://127.0.0.1' },
      403,
    ],
  ])('refuses %s with a clear 4xx and queues nothing', async (_what, headers, status) => {
    const res = await post(headers);
    expect(res.status).toBe(status);
    expect(res.error).toMatch(status === 415 ? /application\/json only/ : /loopback|another origin/);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it.each([
    ['JSON without Origin (curl, hookgate chat)', { 'content-type': 'application/json' }],
    ['JSON with a charset', { 'content-type': 'Application/JSON; charset=utf-8' }],
    [
      'JSON from the console page (its own loopback origin)',
      { 'content-type': 'application/json', origin: 'http://127.0.0.1:8787' },
    ],
    ['JSON from another loopback page', { 'content-type': 'application/json', origin: 'http://localhost:3000' }],
    ['JSON through localhost', { 'content-type': 'application/json', host: 'localhost' }],
    ['JSON through ::1', { 'content-type': 'application/json', host: '[::1]:8787', origin: 'http://[::1]:8787' }],
  ])('accepts %s', async (_what, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(202);
    expect((await gw.drainTurns()).map((t) => t.session_key)).toEqual(['local:origin']);
  });

  it('keeps a JSON body with fields it does not read (attachments) acceptable', async () => {
    const body = JSON.stringify({
      chat_id: 'origin',
      user_id: 'u1',
      text: 'see file',
      attachments: [{ name: 'a.txt', mime_type: 'text/plain', data_base64: 'aGk=' }],
    });
    expect((await post({ 'content-type': 'application/json' }, body)).status).toBe(202);
    await gw.drainTurns();
  });

  it('GET /webhooks/local/messages answers this machine only: a rebound host name reads no chat’s replies', async () => {
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'GET', path: '/webhooks/local/messages?chat_id=origin', headers: { host } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await get('evil.test')).toBe(403);
    expect(await get(`127.0.0.1.evil.test:${port}`)).toBe(403);
    expect(await get(`127.0.0.1:${port}`)).toBe(200);
    expect(await get('localhost')).toBe(200);
  });

  it('knows loopback host names from others', () => {
    for (const name of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '[::ffff:7f00:1]'])
      expect(isLoopbackHostname(name), name).toBe(true);
    for (const name of [
      'evil.test',
      'localhost.evil.test',
      '127.0.0.1.nip.io',
      '10.0.0.1',
      '0.0.0.0',
      '[::]',
      '[::ffff:a00:1]',
      '',
    ])
      expect(isLoopbackHostname(name), name).toBe(false);
  });
});

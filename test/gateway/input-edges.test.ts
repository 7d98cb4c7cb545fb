import { request as httpRequest, Agent } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { INPUT_LIMITS } from '../../src/gateway/input-limits.ts';
import { TurnMessageTooLargeError } from '../../src/pipeline/turn-queue-sender.ts';
import { startTestAws } from '../support/local-aws.ts';
import { until } from '../support/until.ts';
import { enable, plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';

/**
 * The gateway's edges (issue #14 items 1, 2, 7): any text is queued, ids and text are
 * checked against stated limits before the ack, a body over the limit gets 413 without
 * breaking its keep-alive connection, /v1 authentication failures are 401 with a
 * challenge, and hook results or bodies that cannot become text are permanent 4xx or
 * ignored — never a 503.
 */
const TOKEN = 'edge-token-0123456789';
let aws: RunningEmulators;
let home: TempHome;
let sinkPlane: DataPlane;
let engine: LoadedHookEngine;
let gw: GatewayHarness;

beforeAll(async () => {
  aws = await startTestAws();
  home = await tempHome({
    'config.yaml': enable('seen'),
    ...plugin(
      'seen',
      `ctx.register_hook('post_tool_call', () => null);
       // A hook may rewrite text past the door's limit: 50,000 NULs are 300,000 bytes on the queue.
       ctx.register_hook('pre_gateway_dispatch', (k: any) => k.event.text === 'expand me' ? { action: 'rewrite', text: '\\u0000'.repeat(50000) } : null);`,
    ),
    // A command:status hook whose decision cannot be turned into text.
    'hooks/bad-decision/HOOK.yaml': 'events: [command:status]\n',
    'hooks/bad-decision/handler.ts':
      'export async function handle() { return { decision: { toString() { throw new Error("no text for you"); } } }; }\n',
  });
  sinkPlane = createDataPlane(dataPlaneFromLocalAws(aws));
  engine = await createHookEngine({
    home: home.path,
    gatewayHooks: true,
    env: {},
    logger: createMemoryLogger(),
    print: () => {},
    observerSink: sinkPlane.observerSink,
  });
  gw = gatewayHarness(aws, { HOOKGATE_API_TOKEN: TOKEN }, engine);
});
afterAll(async () => {
  await engine?.close();
  gw?.plane.destroy();
  sinkPlane?.destroy();
  await home?.remove();
  await aws?.stop();
});

const local = (body: Record<string, unknown>) => gw.request('/webhooks/local', { body: JSON.stringify(body) });
const auth = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

describe('text through the turn queue (item 1)', () => {
  it('queues astral, control and non-character text and gives it back exactly', async () => {
    const text = 'hi 😀 \u0000\u0001\u000b\u000c\u001f\ufffe\uffff \u{10ffff} end';
    const res = await local({ chat_id: 'c-text', user_id: 'u', text });
    expect(res.status).toBe(202);
    const [turn] = await gw.drainTurns();
    expect(turn?.kind === 'message' && turn.event.text).toBe(text);
  });

  it('400 for a lone surrogate, which no platform sends and no UTF-8 store keeps', async () => {
    const res = await gw.request('/webhooks/local', { body: '{"chat_id":"c","user_id":"u","text":"a\\ud800b"}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/lone surrogate .*index 1/);
  });
});

describe('input limits at the door (item 7)', () => {
  it('400 naming the limit for a 5,000-character chat_id, before anything is queued', async () => {
    const res = await local({ chat_id: 'c'.repeat(5_000), user_id: 'u', text: 'hi' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      `chat_id is 5000 bytes; the limit is ${INPUT_LIMITS.idBytes} bytes (UTF-8)`,
    );
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('413 naming the limit for a 300 KB message; one at the limit is queued', async () => {
    const res = await local({ chat_id: 'c-big', user_id: 'u', text: 'x'.repeat(300 * 1024) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/the limit is 40000 characters/);
    const atLimit = '😀'.repeat(INPUT_LIMITS.textChars / 2);
    expect((await local({ chat_id: 'c-big', user_id: 'u', text: atLimit })).status).toBe(202);
    const [turn] = await gw.drainTurns();
    expect(turn?.kind === 'message' && turn.event.text === atLimit).toBe(true);
  });

  it('the turn queue refuses a message whose queued form is over 256 KiB, before sending it', async () => {
    // 50,000 NULs are 300,000 bytes escaped (a hook may rewrite text past the door's limit).
    const event = {
      text: '\u0000'.repeat(50_000),
      message_id: 'm',
      internal: false,
      source: { platform: 'local', chat_id: 'c', user_id: 'u', user_name: '', chat_type: 'dm', thread_id: '' },
      reply: { platform: 'local', chat_id: 'c', thread_id: '', extra: {} },
    };
    const sent = gw.plane.turnQueue.send({
      v: 1,
      kind: 'message',
      delivery_id: 'local:big',
      session_key: 'local:c',
      received_at: new Date().toISOString(),
      event,
    });
    await expect(sent).rejects.toBeInstanceOf(TurnMessageTooLargeError);
    await expect(sent).rejects.toThrow(/the limit is 262144 bytes/);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('413, not an ack and a later failure, when a hook rewrote the text past what one SQS message holds', async () => {
    const res = await local({ chat_id: 'c-rewrite', user_id: 'u', text: 'expand me' });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/too large to queue: .*the limit is 262144 bytes/);
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('400 for an over-long chat_id in the local outbox query', async () => {
    const res = await gw.request(`/webhooks/local/messages?chat_id=${'c'.repeat(600)}`, { method: 'GET' });
    expect(res.status).toBe(400);
  });
});

describe('/v1 authentication (item 7)', () => {
  it.each([
    ['a Basic credential', 'Basic abc'],
    ['a bare token', TOKEN],
    ['Bearer with two tokens', `Bearer ${TOKEN} extra`],
    ['a wrong token', `Bearer ${TOKEN}x`],
  ])('401 with WWW-Authenticate for %s', async (_label, authorization) => {
    const res = await gw.request('/v1/hooks/pre_tool_call', {
      body: '{}',
      headers: { 'content-type': 'application/json', authorization },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="hookgate"/);
  });

  it('401 with WWW-Authenticate without an Authorization header', async () => {
    const res = await gw.request('/v1/events', { body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="hookgate"');
  });

  it('takes a well-formed bearer token', async () => {
    const res = await gw.request('/v1/hooks/pre_tool_call', {
      body: '{"tool_name":"x"}',
      headers: { ...auth, authorization: `bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('values that cannot become text (item 2)', () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it.each(['/v1/events', '/v1/hooks/post_tool_call'])('400, not 503, for a body nested 20,000 levels deep: %s', async (path) => {
    const body = path === '/v1/events' ? `{"type":"post_tool_call","payload":${deep(20_000)}}` : deep(20_000);
    const res = await gw.request(path, { body, headers: auth });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/more than 100 levels deep/);
  });

  it('a body 100 levels deep is fine', async () => {
    const res = await gw.request('/v1/events', { body: `{"type":"post_tool_call","payload":${deep(99)}}`, headers: auth });
    expect(res.status).toBe(202);
  });

  it('400 for an event id longer than the envelope allows', async () => {
    const res = await gw.request('/v1/events', {
      body: JSON.stringify({ type: 'post_tool_call', payload: {}, id: 'i'.repeat(201) }),
      headers: auth,
    });
    expect(res.status).toBe(400);
  });

  it('400 for an event id, session id or turn id with a lone surrogate, as for a webhook id', async () => {
    for (const field of ['id', 'session_id', 'turn_id']) {
      // JSON.stringify writes a lone surrogate as the escape "\ud800", as a client's JSON would.
      const res = await gw.request('/v1/events', {
        body: JSON.stringify({ type: 'post_tool_call', payload: {}, [field]: 'a\ud800b' }),
        headers: auth,
      });
      expect(res.status, field).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('well-formed Unicode');
    }
  });

  it('a command:<name> decision whose toString throws is ignored: the command runs', async () => {
    const res = await local({ chat_id: 'c-status', user_id: 'u', text: '/status' });
    expect(res.status).toBe(202);
  });
});

describe('a body over the limit on a keep-alive connection (item 7)', () => {
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: gw.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (agent: Agent, path: string, body: string, headers: Record<string, string> = {}) =>
    new Promise<string>((resolve) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path, agent, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.statusCode)));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      if (headers['transfer-encoding'] === 'chunked') {
        // No declared length: the body arrives in chunks, and the limit is counted as it is read.
        req.write(body.slice(0, 10));
        req.end(body.slice(10));
      } else req.end(body);
    });

  it('answers every 2 MB body 413 and every small request on the same connections normally', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const big = JSON.stringify({ chat_id: 'c-ka', user_id: 'u', text: 'x'.repeat(2 * 1024 * 1024) });
    const small = JSON.stringify({ chat_id: 'c-ka', user_id: 'u', text: 'hi' });
    const statuses: string[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        statuses.push(await send(agent, '/webhooks/local', big));
        statuses.push(await send(agent, '/webhooks/local', small));
      }
      statuses.push(await send(agent, '/v1/events', big, { authorization: 'Basic nope' }));
      statuses.push(await send(agent, '/v1/events', '{}', { authorization: 'Basic nope' }));
    } finally {
      agent.destroy();
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => ['413', '202']).flat(), '401', '401']);
    await gw.drainTurns();
  });

  it('takes a caller that hangs up half-way through its body for what it is: a warning, not a failure of its own', async () => {
    const warn = vi.spyOn(gw.deps.logger, 'warn');
    const error = vi.spyOn(gw.deps.logger, 'error');
    try {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /webhooks/local HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"chat_id":',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await until(
        () => warn.mock.calls.some(([message]) => message === 'the caller went away before its request was read'),
        'the warning',
      );
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
    expect(await gw.drainTurns()).toEqual([]);
  });

  it('counts a chunked body without a declared length: 413 over the limit, 202 within it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const chunked = { 'transfer-encoding': 'chunked' };
    const big = JSON.stringify({ chat_id: 'c-chunked', user_id: 'u', text: 'x'.repeat(2 * 1024 * 1024) });
    const small = JSON.stringify({ chat_id: 'c-chunked', user_id: 'u', text: 'hi' });
    try {
      expect([
        await send(agent, '/webhooks/local', big, chunked),
        await send(agent, '/webhooks/local', small, chunked),
        await send(agent, '/webhooks/local', small),
      ]).toEqual(['413', '202', '202']);
    } finally {
      agent.destroy();
    }
    await gw.drainTurns();
  });
});

import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/hooks/catalogue.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';
import { gatewayHarness, type GatewayHarness } from './support/gateway-harness.ts';
import { recordingEngine, type RecordingEngine } from './support/recording-engine.ts';
import { TurnsInFlight } from '../../src/agent/turn/turns-in-flight.ts';

const TOKEN = 'test-token-0123456789';
let aws: RunningEmulators;
let engine: RecordingEngine;
let gw: GatewayHarness;

beforeAll(async () => {
  aws = await startTestAws({ eventsVisibilityTimeout: 1 });
  engine = recordingEngine();
  gw = gatewayHarness(aws, { HOOKGATE_API_TOKEN: TOKEN }, engine);
});
afterAll(async () => {
  gw?.plane.destroy();
  await aws?.stop();
});

const auth = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
const post = (path: string, body: unknown, headers: Record<string, string> = auth) =>
  gw.request(path, { body: typeof body === 'string' ? body : JSON.stringify(body), headers });

async function receiveEvents(count: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let tries = 0; out.length < count && tries < 10; tries++) {
    const { Messages } = await gw.plane.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: aws.eventsQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    for (const m of Messages ?? []) out.push(JSON.parse(m.Body!) as Record<string, unknown>);
  }
  return out;
}

describe('/v1 bearer token', () => {
  it('is required and compared exactly', async () => {
    expect((await post('/v1/hooks/pre_tool_call', {}, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await post('/v1/hooks/pre_tool_call', {}, { ...auth, authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post('/v1/hooks/pre_tool_call', {}, { ...auth, authorization: `Basic ${TOKEN}` })).status).toBe(401);
  });

  it('closes /v1 when no token is configured', async () => {
    const closed = gatewayHarness(aws, {}, engine);
    const res = await closed.request('/v1/hooks/pre_tool_call', { body: '{}', headers: auth });
    closed.plane.destroy();
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/HOOKGATE_API_TOKEN/);
  });
});

describe('POST /v1/hooks/{hook}', () => {
  it('answers engine.invoke for the body as kwargs', async () => {
    engine.answers.pre_tool_call = (kwargs) =>
      kwargs.tool_name === 'terminal' ? { action: 'block', message: 'no shell' } : { action: 'allow' };
    const res = await post('/v1/hooks/pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: 'block', message: 'no shell' });
    expect(engine.calls.at(-1)).toMatchObject({
      op: 'invoke',
      name: 'pre_tool_call',
      payload: { tool_name: 'terminal', args: { command: 'ls' } },
    });
  });

  it('404 with the valid names for an unknown hook', async () => {
    const res = await post('/v1/hooks/pre_tool_cal', {});
    expect(res.status).toBe(404);
    const json = (await res.json()) as { error: string; valid: string[] };
    expect(json.valid).toEqual([...HOOK_NAMES]);
    expect(json.error).toContain('api_request_error, on_session_end');
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[1]'],
    ['a string', '"x"'],
  ])('400 for a body that is %s', async (_l, body) => {
    const res = await post('/v1/hooks/pre_llm_call', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/JSON|object/);
  });
});

describe('POST /v1/events', () => {
  it('queues one event durably and answers 202 with its id; plugin hooks get the telemetry tag', async () => {
    const res = await post('/v1/events', { type: 'post_tool_call', payload: { tool_name: 'x' }, id: 'ev-1', session_id: 's1' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ids: ['ev-1'] });
    const [envelope] = await receiveEvents(1);
    expect(envelope).toMatchObject({
      v: 1,
      id: 'ev-1',
      type: 'post_tool_call',
      session_id: 's1',
      payload: { tool_name: 'x', telemetry_schema_version: 'hermes.observer.v1' },
    });
  });

  it('queues a batch and assigns missing ids', async () => {
    const events = [
      { type: 'agent:step', payload: { iteration: 1 } },
      { type: 'session:compress', payload: {} },
      { type: 'on_session_end', payload: { session_id: 's' }, turn_id: 't' },
    ];
    const res = await post('/v1/events', { events });
    expect(res.status).toBe(202);
    const { ids } = (await res.json()) as { ids: string[] };
    expect(ids).toHaveLength(3);
    const received = await receiveEvents(3);
    expect(received.map((e) => e.id).sort()).toEqual([...ids].sort());
  });

  it.each([
    ['a decision hook type', { type: 'pre_tool_call', payload: {} }, /type must be/],
    ['an unknown type', { type: 'whatever', payload: {} }, /type must be/],
    ['no payload', { type: 'agent:step' }, /payload/],
    ['too many events', { events: Array.from({ length: 501 }, () => ({ type: 'agent:step', payload: {} })) }, /500/],
    ['an empty batch', { events: [] }, /events/],
  ])('400 for %s', async (_l, body, message) => {
    const res = await post('/v1/events', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it('503 when the sink cannot publish', async () => {
    const broken = gatewayHarness(aws, { HOOKGATE_API_TOKEN: TOKEN }, engine, {
      observerSink: { publish: () => Promise.reject(new Error('sns down')) },
    });
    const res = await broken.request('/v1/events', { body: JSON.stringify({ type: 'agent:step', payload: {} }), headers: auth });
    broken.plane.destroy();
    expect(res.status).toBe(503);
  });
});

describe('GET /healthz', () => {
  it('answers only {"status":"ok"} (nothing about the deployment)', async () => {
    const res = await gw.request('/healthz', { method: 'GET' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"status":"ok"}');
  });

  it('is degraded (503) with the turn id and age of a stuck turn, and ok again once it ends', async () => {
    let now = 1_000_000;
    const turnHealth = new TurnsInFlight({ stuckAfterMs: 60_000, now: () => now });
    const probe = gatewayHarness(aws, {}, recordingEngine(), { turnHealth });
    try {
      const end = turnHealth.begin({ turn_id: 'turn_stuck', session_key: 'local:c9', session_id: 's9' });
      now += 30_000;
      turnHealth.begin({ turn_id: 'turn_young', session_key: 'local:c8', session_id: 's8' });
      expect((await probe.request('/healthz', { method: 'GET' })).status).toBe(200);
      now += 45_000;
      const res = await probe.request('/healthz', { method: 'GET' });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'degraded',
        stuck_turns: [{ turn_id: 'turn_stuck', session_key: 'local:c9', age_seconds: 75 }],
      });
      end();
      now += 60_000;
      expect(await (await probe.request('/healthz', { method: 'GET' })).json()).toEqual({
        status: 'degraded',
        stuck_turns: [{ turn_id: 'turn_young', session_key: 'local:c8', age_seconds: 105 }],
      });
    } finally {
      probe.plane.destroy();
    }
  });
});

describe('POST /v1/hooks kwargs types', () => {
  it('400 naming the key when a known kwarg has the wrong type', async () => {
    const res = await post('/v1/hooks/pre_tool_call', { tool_name: 42 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/pre_tool_call kwargs: .*tool_name/s);
  });
});

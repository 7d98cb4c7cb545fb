import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable } from '../hooks/support/temp-home.ts';
import { faultLine, size, until } from './support/fault-line.ts';
import {
  chatMessage,
  PLATFORMS,
  recorderPlugin,
  signedHeaders,
  startFaultDev,
  type FaultDev,
  type Platform,
} from './support/fault-dev.ts';

/**
 * Fault 1: generated bodies (garbage, JSON of the wrong shape, the platform's own shape with a
 * field of the wrong type, huge strings, deep nesting, bad UTF-8, wrong content types), signed
 * correctly where the platform signs, at every webhook route and every `/v1` route of a running
 * `hookgate dev`. Nothing may answer ≥ 500 or drop the connection; afterwards /healthz is ok and
 * the heap (after a full collection) is back within 20 % of where it was after a warm-up.
 */
const PER_ROUTE = size(1_000, 120);
const CONCURRENCY = 8;

type Route = { name: string; path: string; platform?: Platform; shape: string };
let fd: FaultDev;
let routes: Route[];
let teamsToken: string;

beforeAll(async () => {
  fd = await startFaultDev({ files: { 'config.yaml': enable('recorder'), ...recorderPlugin() } });
  teamsToken = await fd.fake.teamsToken({ serviceUrl: `${fd.fake.url}/teams-service/` });
  routes = [
    // A fixed delivery id per route: a body that happens to be a valid message is one turn, not hundreds.
    ...PLATFORMS.map((platform) => ({
      name: platform,
      path: `/webhooks/${platform}`,
      platform,
      shape: chatMessage(fd, platform, 'fuzz', 7, 'hi').body,
    })),
    {
      name: 'v1/hooks',
      path: '/v1/hooks/pre_tool_call',
      shape: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' }, session_id: 's', task_id: 't' }),
    },
    {
      name: 'v1/events',
      path: '/v1/events',
      shape: JSON.stringify({ type: 'post_tool_call', payload: { tool_name: 'x', result: 'y' } }),
    },
  ];
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

/** The platform's own body with one value somewhere replaced by `value`. */
function mutate(shape: string, pick: number, value: unknown): string {
  const root = JSON.parse(shape) as unknown;
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      slots.push([node as Record<string, unknown>, Array.isArray(node) ? Number(key) : key]);
      walk(child);
    }
  };
  walk(root);
  const [parent, key] = slots[pick % slots.length]!;
  (parent as Record<string | number, unknown>)[key] = value;
  return JSON.stringify(root);
}

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
);
const body = (shape: string): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([pick, value]) => Buffer.from(mutate(shape, pick, value))),
    fc
      .tuple(fc.nat(), fc.integer({ min: 10_000, max: 1_200_000 }))
      .map(([pick, n]) => Buffer.from(mutate(shape, pick, 'x'.repeat(n)))),
    fc
      .tuple(fc.nat(), fc.integer({ min: 40, max: 20_000 }), fc.boolean())
      .map(([pick, depth, arrays]) =>
        Buffer.from(
          mutate(shape, pick, 0).replace(
            /:0([,}])/,
            `:${arrays ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`}$1`,
          ),
        ),
      ),
    fc.tuple(fc.uint8Array({ maxLength: 300 })).map(([bytes]) => Buffer.from(bytes)),
    fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([pick, bytes]) => {
      // Valid JSON around invalid UTF-8 (lone continuation bytes, overlongs, surrogates as UTF-8).
      const marker = '\u0001MARK\u0001';
      const text = mutate(shape, pick, marker);
      const at = text.indexOf(JSON.stringify(marker).slice(1, -1));
      const bad = Buffer.concat([Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff]), Buffer.from(bytes)]);
      return at < 0
        ? bad
        : Buffer.concat([Buffer.from(text.slice(0, at)), bad, Buffer.from(text.slice(at + JSON.stringify(marker).length - 2))]);
    }),
  );

async function send(route: Route, raw: Buffer, type: string): Promise<number | 'dropped'> {
  const headers: Record<string, string> = route.platform
    ? signedHeaders(fd, route.platform, raw, type)
    : { 'content-type': type, authorization: `Bearer ${fd.dev.apiToken}` };
  if (route.platform === 'teams') headers.authorization = `Bearer ${teamsToken}`;
  if (!type) delete headers['content-type'];
  try {
    const res = await fetch(`${fd.dev.url}${route.path}`, { method: 'POST', body: raw, headers });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'dropped';
  }
}

function heap(): { heap: number; rss: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

describe('fault 1: generated bodies at every route', () => {
  it('never answers ≥ 500, never drops a connection, and leaves the server healthy', async (ctx) => {
    const run = async (count: number, seed: number) => {
      const statuses: (number | 'dropped')[] = [];
      const failures: string[] = [];
      for (const route of routes) {
        const samples = fc.sample(fc.tuple(body(route.shape), contentType), { numRuns: count, seed: seed + route.name.length });
        for (let i = 0; i < samples.length; i += CONCURRENCY) {
          const batch = samples.slice(i, i + CONCURRENCY);
          const got = await Promise.all(batch.map(([raw, type]) => send(route, raw, type)));
          got.forEach((status, j) => {
            statuses.push(status);
            if (status === 'dropped' || status >= 500)
              failures.push(`${route.name} ${status}: ${batch[j]![0].subarray(0, 120).toString('utf8')}`);
          });
        }
      }
      return { statuses, failures };
    };
    await run(20, 1); // warm-up: caches, JIT, clients
    const before = heap();
    const seed = Date.now() % 100_000;
    const { statuses, failures } = await run(PER_ROUTE, seed);
    const health = await until(
      async () => {
        const res = await fetch(`${fd.dev.url}/healthz`);
        return { status: res.status, body: await res.text() };
      },
      (h) => h.status === 200,
    );
    const after = heap();
    const over500 = statuses.filter((s) => s !== 'dropped' && s >= 500).length;
    const dropped = statuses.filter((s) => s === 'dropped').length;
    const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${Math.round(((a - b) / b) * 100)}%`;
    const byClass = new Map<string, number>();
    for (const s of statuses) byClass.set(String(s), (byClass.get(String(s)) ?? 0) + 1);
    faultLine(
      ctx,
      `fault 1 fuzz-bodies: ${statuses.length} bodies over ${routes.length} routes (seed ${seed}), ${over500} responses >= 500, ${dropped} dropped connections, healthz ${health.status}, heap ${pct(after.heap, before.heap)} rss ${pct(after.rss, before.rss)} after; statuses ${[
        ...byClass,
      ]
        .sort()
        .map(([k, v]) => `${k}x${v}`)
        .join(' ')}`,
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(health.body).toBe('{"status":"ok"}');
    expect(after.heap).toBeLessThanOrEqual(before.heap * 1.2);
  });
});

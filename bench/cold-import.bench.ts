import type { Bench } from './harness.ts';
import { measureColdImport } from './cold-import.ts';

/**
 * `cold-import`: the gateway λ bundle's cold import, code-split as shipped, against a bare hono +
 * DynamoDB + SQS bundle in one file, both built with the functions' esbuild options (goal ≤ 1.5);
 * and `cold-import.first-request`, the same cold starts through their first webhook. The
 * measurement is bench/cold-import.ts.
 */
const bench: Bench = async () => {
  const r = await measureColdImport();
  return [
    {
      id: 'cold-import',
      name: `cold-import: gateway bundle, code-split (SDK ${r.sdk}, ${r.bytes.gateway} B at start, AWS over ${r.transport})`,
      baseline: `bare hono + DynamoDB + SQS bundle, one file (${r.bytes.baseline} B)`,
      unit: 'ms',
      value: r.value,
      baselineValue: r.baselineValue,
      better: 'lower',
      notes: `p99 ${r.gateway.p99.toFixed(0)} vs ${r.baseline.p99.toFixed(0)} ms, ${r.gateway.n} fresh processes each`,
    },
    {
      id: 'cold-import.first-request',
      name: 'cold gateway: import + first webhook (a signed Slack event through the Function URL handler)',
      baseline: 'bare bundle: import + the same webhook (one put, one send)',
      unit: 'ms',
      value: r.firstRequest.gateway.p50,
      baselineValue: r.firstRequest.baseline.p50,
      better: 'lower',
      notes: `p99 ${r.firstRequest.gateway.p99.toFixed(0)} vs ${r.firstRequest.baseline.p99.toFixed(0)} ms; what a platform's 3-second window sees`,
    },
  ];
};

export default bench;

